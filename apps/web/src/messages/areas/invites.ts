/** What the invites/ screens say (keys `invites.*`): the referral page and the invite landing. */
export const INVITES_MESSAGES = {
  // /invite/landing: where an invite link leads a friend.
  'invites.landing.invitedBy': '{inviter} invited you to Moments',
  'invites.landing.invited': "You've been invited to Moments",
  'invites.landing.pitch':
    'Moments turns long videos into short clips: it finds the best moments, adds animated captions and reframes them for every social platform.',
  'invites.landing.invalid':
    'This invite link is not valid any more, but you can still sign up free.',
  // "Sign up through this invite and get <b>N extra credits</b> when you start your first paid plan."
  'invites.landing.rewardBefore': 'Sign up through this invite and get',
  'invites.landing.rewardAfter': 'when you start your first paid plan.',
  'invites.landing.goToMoments': 'Go to Moments',
  'invites.landing.signUp': 'Sign up free',
  'invites.landing.logIn': 'Log in',
  'invites.landing.step.paste': 'Paste a link or upload a video',
  'invites.landing.step.moments': 'Get its most shareable moments with reasons and scores',
  'invites.landing.step.export': 'Export vertical clips with word-by-word captions',

  // /invite: the user's referral link.
  'invites.page.title': 'Invite friends',
  'invites.page.loadFailed': 'Your invite link could not be loaded. Try again.',
  // "When a friend signs up …, you get <b>N credits</b> and your friend gets <b>M extra credits</b>. Each friend counts once."
  'invites.page.rewardBefore':
    'When a friend signs up with your link and takes a paid plan, you get',
  'invites.page.rewardMiddle': 'and your friend gets',
  'invites.page.rewardAfter': '. Each friend counts once.',
  'invites.page.link': 'Your invite link',
  'invites.page.copied': 'Copied',
  'invites.page.friendsJoined': 'Friends who joined',
  'invites.page.creditsEarned': 'Credits earned',
  'invites.page.howItWorks': 'How it works',
  'invites.page.step.send': 'Send your link to a friend.',
  'invites.page.step.signUp': 'They sign up free through it.',
  'invites.page.step.reward':
    'When they start their first paid plan, you both get credits, once per friend.',

  // Credit amounts in bold inside the sentences above.
  'invites.credits.one': '{credits} credit',
  'invites.credits.other': '{credits} credits',
  'invites.extraCredits.one': '{credits} extra credit',
  'invites.extraCredits.other': '{credits} extra credits',
} as const;
