/** What the shares/ screens say (keys `shares.*`): the public page of a shared summary, note or clip. */
export const SHARES_MESSAGES = {
  'shares.broken.title': 'This link does not work',
  'shares.broken.text': 'It was never shared, or its owner stopped sharing it.',
  'shares.goToMoments': 'Go to Moments',
  'shares.note.badge': 'Shared note',
  'shares.summary.badge': 'Shared summary',
  'shares.summary.original': 'Watch the original video',
  'shares.summary.overview': 'Overview',
  'shares.summary.chapters': 'Chapters',
  'shares.summary.keyPoints': 'Key points',
  // "Made with Moments. <link>Sign up free</link> to summarise your own videos."
  'shares.summary.madeWith': 'Made with Moments.',
  'shares.summary.toSummarise': 'to summarise your own videos.',
  'shares.signUp': 'Sign up free',
} as const;
