/** What the errors/ dialogs say (the global error handler; keys `errors.*`). */
export const ERRORS_MESSAGES = {
  'errors.network.title': 'Network Disconnected',
  'errors.network.text':
    "We couldn't reach the Moments server. Check your connection, then try again.",
  'errors.network.retry': 'Retry',
  'errors.limit.fallbackTitle': "You've reached your limit",
  'errors.limit.title.credits': "You're out of credits",
  'errors.limit.title.exports': "You've reached your export limit",
  'errors.limit.title.usage': "You've reached a limit of your plan",
  'errors.limit.title.tooLong': 'This video is too long for your plan',
  'errors.limit.text.credits.free':
    'You have used the credits included in the free plan. Upgrade to keep finding moments and exporting clips.',
  'errors.limit.text.exports.free':
    'You have used all the exports included in the free plan. Upgrade to export more clips.',
  'errors.limit.text.usage.free':
    'You have used the limits included in the free plan. Upgrade to keep finding moments and exporting clips.',
  'errors.limit.text.tooLong.free':
    'The free plan takes videos up to 60 minutes. Upgrade to process longer videos.',
  'errors.limit.text.credits.paid':
    'You have used the credits of your current plan for this period. Move to a bigger plan or add credits to continue.',
  'errors.limit.text.exports.paid':
    'You have used all the exports of your current plan for this period. Move to a bigger plan to continue.',
  'errors.limit.text.usage.paid':
    'You have used the limits of your current plan for this period. Move to a bigger plan to continue.',
  'errors.limit.text.tooLong.paid':
    'This video is longer than your plan allows. Move to a bigger plan to process it.',
  'errors.limit.text.credits.proPlus':
    "You have used the credits of the Pro plus plan. Write to us and we'll raise your limits.",
  'errors.limit.text.exports.proPlus':
    "You have used all the exports of the Pro plus plan. Write to us and we'll raise your limits.",
  'errors.limit.text.usage.proPlus':
    "You have used the limits of the Pro plus plan. Write to us and we'll raise your limits.",
  'errors.limit.text.tooLong.proPlus':
    "This video is longer than your plan allows. Write to us and we'll raise your limits.",
  'errors.limit.action.contact': 'Contact us',
  'errors.limit.action.upgrade': 'Upgrade',
  'errors.limit.action.seePlans': 'See plans',
  'errors.limit.notNow': 'Not now',
  'errors.limit.mailSubject': 'Raise my Moments limits',
  'errors.notYearly.thisFeature': 'This feature',
  'errors.sensitive.title': 'This video is restricted',
  'errors.sensitive.text':
    "This video contains content we can't process. Please try a different video.",
  'errors.sensitive.backHome': 'Back to home',
} as const;
