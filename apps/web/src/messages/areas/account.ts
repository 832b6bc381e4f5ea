/** What the account/ readings say: the price list, export allowance and credit cost (keys `account.*`). */
export const ACCOUNT_MESSAGES = {
  'account.work.summary': 'Summary of the video',
  'account.work.clips': 'Finding viral moments',
  'account.work.finds': 'Answering a question',
  'account.work.captions': 'Animated captions',
  'account.work.transcript': 'Transcript',
  'account.perMinute.one': '{credits} credit per started minute',
  'account.perMinute.other': '{credits} credits per started minute',
  'account.priceList.intro':
    'Work is priced by the length of the video, per started minute; the exact cost is shown before you start, and failed work is refunded.',
  'account.priceList.item': '{work}: {price}',
  'account.priceList.example':
    "A task is its work plus the summary: viral moments on a 3-minute video cost {run} + {summary} = {total} credits. A question on a video already transcribed costs only the question. Clip exports count against your plan's exports; the whole-video caption export costs {captionExport}.",
  'account.exports.unlimited': 'Unlimited exports on your plan',
  'account.exports.none': 'No exports left on the free plan: upgrade to export this clip',
  'account.exports.left.one': '{count} export left on the free plan',
  'account.exports.left.other': '{count} exports left on the free plan',
  'account.credits.unlimitedLeft': ' · unlimited credits',
  'account.credits.left': ' · {credits} credits left',
  'account.credits.byLength': 'Credits are charged by video length{left}',
  'account.credits.cost.one': 'Costs {credits} credit{left}',
  'account.credits.cost.other': 'Costs {credits} credits{left}',
  'account.credits.notEnough': '{cost}: not enough for this video',
} as const;
