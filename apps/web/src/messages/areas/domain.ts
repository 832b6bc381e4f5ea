/**
 * The web's words for what packages/domain hands it as codes and numbers (keys `domain.*`): plan
 * tiers and periods, billing lines, cancel reasons, form errors, relative times, count suffixes.
 * The domain keeps its own English only for what the server writes (receipts, mails).
 */
export const DOMAIN_MESSAGES = {
  'domain.tier.FREE': 'Free',
  'domain.tier.VIP': 'Standard',
  'domain.tier.SVIP': 'Pro',
  'domain.tier.SSVIP': 'Pro plus',
  // A plan name: "Pro (yearly)", "Standard, education (monthly)".
  'domain.plan.edu': '{tier}, education',
  'domain.plan.year': '{plan} (yearly)',
  'domain.plan.month': '{plan} (monthly)',

  'domain.billing.custom': 'Custom pricing for your team',
  'domain.billing.free': 'Free forever',
  'domain.billing.monthly': 'Billed ${amount} monthly',
  'domain.billing.yearly': 'Billed ${amount} yearly',
  'domain.billing.firstYear':
    'Billed ${amount} for the first year, ${renewal} after the first year',

  // The cancel survey's reasons, by the domain's reason id.
  'domain.cancelReason.1': 'It is too expensive',
  'domain.cancelReason.2': 'A feature I need is missing',
  'domain.cancelReason.3': 'The clips are not good enough',
  'domain.cancelReason.4': 'I ran into technical problems',
  'domain.cancelReason.5': 'I am switching to another product',
  'domain.cancelReason.6': 'I only needed it for one project',
  'domain.cancelReason.7': 'Other',
  'domain.survey.feedbackRequired': 'Please enter feedback',
  'domain.survey.contentRequired': 'Please enter content',

  'domain.enterprise.required': 'This field is required',
  'domain.enterprise.email': 'Enter a valid business email',
  'domain.enterprise.companySize': 'Choose a company size',

  'domain.password.tooShort': 'Use at least {min} characters',
  'domain.password.isEmail': 'Do not use your email as your password',

  // Waits (a rate limit's Retry-After): "1 hour and 5 minutes".
  'domain.wait.second.one': '{count} second',
  'domain.wait.second.other': '{count} seconds',
  'domain.wait.minute.one': '{count} minute',
  'domain.wait.minute.other': '{count} minutes',
  'domain.wait.hour.one': '{count} hour',
  'domain.wait.hour.other': '{count} hours',
  'domain.wait.and': '{first} and {second}',

  'domain.ago.now': 'just now',
  'domain.ago.minute.one': '{count} minute ago',
  'domain.ago.minute.other': '{count} minutes ago',
  'domain.ago.hour.one': '{count} hour ago',
  'domain.ago.hour.other': '{count} hours ago',
  'domain.ago.day.one': '{count} day ago',
  'domain.ago.day.other': '{count} days ago',
  'domain.ago.month.one': '{count} month ago',
  'domain.ago.month.other': '{count} months ago',
  'domain.ago.year.one': '{count} year ago',
  'domain.ago.year.other': '{count} years ago',

  // Mail categories by id (the server sends its own English label too, shown only for unknown ids).
  'domain.mailCategory.account': 'Account mail (welcome and account notices)',
  'domain.mailCategory.task': 'Video task finished or failed',
  'domain.mailCategory.export': 'Export ready or failed',
  'domain.mailCategory.billing': 'Receipts and plan changes',
  'domain.mailCategory.referral': 'Invite rewards',

  // API errors whose server message is always the same, by error code; other codes show the
  // server's own message.
  'domain.apiError.UNAUTHORIZED': 'Please log in to continue',
  'domain.apiError.INVALID_CREDENTIALS': 'Wrong email or password',
  'domain.apiError.EMAIL_TAKEN': 'An account with this email already exists',
  'domain.apiError.DATABASE_UNAVAILABLE':
    'The database cannot be reached right now. Nothing was changed; try again in a moment.',
  'domain.apiError.DISK_FULL':
    'The server ran out of disk space, so nothing was kept. Try again once space has been freed.',
  'domain.apiError.NETWORK_DISCONNECTED': 'The server could not be reached. Check your connection.',
  'domain.apiError.VIDEO_FRAME_TOO_LARGE':
    "This video's picture is larger than 8K (7680x4320), the most Moments can process. Export it at 4K or smaller and upload it again.",

  // View counts: 1.2K, 3M, 1B.
  'domain.count.thousand': '{value}K',
  'domain.count.million': '{value}M',
  'domain.count.billion': '{value}B',

  // Credit history lines: what was charged, and why credits went back.
  'domain.chargeKind.task-run': 'Viral moments',
  'domain.chargeKind.question': 'Question',
  'domain.chargeKind.caption-task': 'Caption task',
  'domain.chargeKind.summary': 'Summary',
  'domain.chargeKind.summary-refresh': 'Summary refresh',
  'domain.chargeKind.export': 'Clip export',
  'domain.chargeKind.caption-export': 'Caption video export',
  'domain.refund.failed': '{work} given back: it failed, so it cost nothing',
  'domain.refund.deleted': '{work} given back: deleted before it was finished',
  'domain.refund.no_speech':
    '{work} given back: the video has no speech, so there was nothing to summarise',
  'domain.refund.not_made': '{work} given back: no summary could be made',
  'domain.refund.unsaid': '{work} given back',
} as const;
