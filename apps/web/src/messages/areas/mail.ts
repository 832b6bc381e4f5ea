/** What the mail/ screens say: unsubscribe links and mail settings (keys `mail.*`). */
export const MAIL_MESSAGES = {
  'mail.preferences.title': 'Email',
  'mail.unsubscribe.title': 'Unsubscribe',
  'mail.unsubscribe.doneTitle': 'You are unsubscribed',
  'mail.unsubscribe.invalid':
    'This unsubscribe link is not valid. Use the link from the mail exactly as it came, or choose which mails you get in',
  // "Stop <b>news</b> mails to …": the sentence split around the mail category in bold.
  'mail.unsubscribe.askBefore': 'Stop',
  'mail.unsubscribe.askAfter': 'mails to {email}? Other mails from Moments are not affected.',
  'mail.unsubscribe.button': 'Unsubscribe',
  'mail.unsubscribe.done':
    '{email} no longer gets {category} mails. You can turn them back on any time in',
  'mail.unsubscribe.settingsProfile': 'Settings → Profile',
} as const;
