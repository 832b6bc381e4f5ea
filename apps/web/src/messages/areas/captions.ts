/** What the captions/ screens say (keys `captions.*`). */
export const CAPTIONS_MESSAGES = {
  'captions.notFound.title': 'Captions not found',
  'captions.notFound.text':
    'This video task does not exist, is not yours, or has no transcript yet.',
  'captions.failed.title': 'Could not open the captions',
  'captions.back': 'Go to your video tasks',
  'captions.loading': 'Loading the captions',
  'captions.sourceGone':
    'The video of this task is no longer stored, so its captions cannot be previewed or exported.',
  'captions.subtitle': 'Animated captions · {length} · {language}',
  'captions.position': 'Position',
  'captions.position.bottom': 'Bottom',
  'captions.position.middle': 'Middle',
  'captions.position.top': 'Top',
  'captions.size': 'Size',
  // Caption sizes, as short as clothing sizes.
  'captions.size.small': 'S',
  'captions.size.medium': 'M',
  'captions.size.large': 'L',
  'captions.removeFillers':
    'Remove filler words (um, uh, repeated words) from the captions and the exported cut',
  'captions.frame': 'Frame',
  'captions.files.menu': 'Subtitle files',
  'captions.files.spoken': 'Spoken language',
  'captions.files.translation': 'Translation ({language})',
  'captions.files.both': 'Both',
  'captions.files.assStyled': 'ASS (styled)',
  'captions.transcript.undo': 'Undo text edits',
  'captions.transcript.help':
    'One line per turn. Fix a misheard word and press Enter; the words you change are re-timed. Click a time to see that moment.',
  'captions.transcript.line': 'Line {number}',
} as const;
