/** What the summaries/ screens say (keys `summaries.*`). */
export const SUMMARIES_MESSAGES = {
  'summaries.title': 'Summary',
  'summaries.untitledVideo': 'Untitled video',
  'summaries.method.llm': 'written by the language model',
  'summaries.method.extractive': 'made from the talk itself',
  'summaries.refresh': 'Refresh',
  'summaries.video': 'Video',
  'summaries.videoGone': 'The video file is no longer available.',
  'summaries.overview': 'Overview',
  'summaries.overview.empty': 'Nothing was said.',
  'summaries.keyPoints': 'Key points',
  'summaries.chapters': 'Chapters',
  'summaries.transcript': 'Transcript',
  'summaries.playFrom': 'Play from {time}',
  'summaries.loading': 'Loading the summary',
  'summaries.loadFailed': 'The summary could not be loaded: {message}',
  'summaries.videoMissing.title': 'This video does not exist',
  'summaries.videoMissing.text': 'It may have been deleted, or it belongs to another account.',
  'summaries.videoMissing.tasks': 'Your video tasks',
  'summaries.none.title': 'No summary for this video yet',
  'summaries.none.text':
    'Videos processed from now on get a summary automatically. You can make one now.',
  'summaries.none.make': 'Make the summary',

  // The share dialog of a summary or a note (ShareLinkModal), by what is shared.
  'summaries.share.title.summary': 'Share this summary',
  'summaries.share.title.note': 'Share this note',
  'summaries.share.shared.summary':
    'Unlisted link: anyone you give it to can read this summary without an account. It is not listed or searchable anywhere.',
  'summaries.share.shared.note':
    'Unlisted link: anyone you give it to can read this note without an account. It is not listed or searchable anywhere.',
  'summaries.share.notShared.summary':
    'Make an unlisted link to this summary. Only people you give it to can open it, and you can revoke it at any time.',
  'summaries.share.notShared.note':
    'Make an unlisted link to this note. Only people you give it to can open it, and you can revoke it at any time.',
  'summaries.share.link': 'Public link',
  'summaries.share.stop': 'Stop sharing',
  'summaries.share.copied': 'Copied',
  'summaries.share.start': 'Create link',
} as const;
