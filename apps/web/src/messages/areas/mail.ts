/** What the mail/ screens say: unsubscribe links and mail settings (keys `mail.*`). */
export const MAIL_MESSAGES = {
  'mail.preferences.title': 'Email',
  'mail.unsubscribe.title': 'Unsubscribe',
  'mail.unsubscribe.doneTitle': 'You are unsubscribed',
  'mail.unsubscribe.invalid':
    'This unsubscribe link is not valid. Use the link from the mail exactly as it came, or choose which mails you get in',
  // The question, then the kind of mail in bold on a line of its own, then what stays.
  'mail.unsubscribe.ask': 'Stop sending this kind of mail to {email}?',
  'mail.unsubscribe.others': 'Other mails from Moments are not affected.',
  'mail.unsubscribe.button': 'Unsubscribe',
  'mail.unsubscribe.done':
    '{email} no longer gets this kind of mail: {category}. You can turn it back on any time in',
  'mail.unsubscribe.settingsProfile': 'Settings → Profile',
} as const;
