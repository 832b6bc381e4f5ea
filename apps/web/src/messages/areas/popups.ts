/** What the popups/ say: home's pop-ups and the yearly-plan guard (keys `popups.*`). */
export const POPUPS_MESSAGES = {
  'popups.welcome.title': 'Welcome to Moments, {name}!',
  // The offer sentence, split around its bold part.
  'popups.welcome.offerBefore': 'As a new member you get',
  'popups.welcome.offer': '50% off the annual plan',
  'popups.welcome.offerAfter': ': more credits, longer videos and exports without limits on style.',
  'popups.welcome.unlock': 'Unlock 50% off',
  'popups.maybeLater': 'Maybe later',
  'popups.community.outOfCredits.title': 'Out of credits?',
  'popups.community.outOfCredits.text':
    'Join our community chat: members share tips, get help from the team and hear first about free credit giveaways.',
  'popups.community.title': 'Join the community',
  'popups.community.text':
    'Share your clips, swap tips with other creators and tell us what to build next.',
  'popups.community.join': 'Join the chat',
  'popups.yearly.title': 'Available on yearly plans',
  'popups.yearly.text':
    'Included with yearly plans. Switch to a yearly plan to unlock it — it also costs less per month.',
  'popups.yearly.seePlans': 'See yearly plans',
} as const;
