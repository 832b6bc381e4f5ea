/** What the studio/ screens say (keys `studio.*`). */
export const STUDIO_MESSAGES = {
  'studio.notFound.title': 'Moment not found',
  'studio.notFound.text': 'This moment does not exist or is not yours.',
  'studio.failed.title': 'Could not open the editor',
  'studio.failed.unknown': 'Something went wrong.',
  'studio.back': 'Go to your moments',
  'studio.loading': 'Loading the editor',
  'studio.sourceGone.title': 'The source video is gone',
  'studio.sourceGone':
    'The video this moment came from is no longer stored, so it cannot be edited or exported.',
  'studio.untitledMoment': 'Untitled moment',
  'studio.subtitle': 'Clip editor · {video}',

  'studio.export.start': 'Export video',
  'studio.export.mp4': 'Export {quality} MP4',
  'studio.export.notStarted': 'The export did not start',
  'studio.export.clipTooLong':
    'A clip on your plan is at most {limit} long. Trim it, or export the whole video from its captions page.',

  // The clip's settings, saved on the server as they change.
  'studio.draft.saved': 'Changes saved',
  'studio.draft.pending': 'Unsaved changes',
  'studio.draft.saving': 'Saving…',
  'studio.draft.failed': 'Changes not saved: trying again',
  'studio.draft.leave.title': 'Leave without your latest changes?',
  'studio.draft.leave.text':
    'Your latest changes to this clip could not be saved: the server cannot be reached just now. If you leave, they are lost; if you stay, they are saved as soon as it answers.',
  'studio.draft.leave.stay': 'Stay',
  'studio.draft.leave.leave': 'Leave anyway',

  'studio.aspect': 'Aspect ratio',
  'studio.aspect.original': 'Original',
  'studio.quality': 'Quality',
  'studio.framing': 'Framing',
  'studio.layout.auto': 'Auto',
  'studio.layout.speaker': 'Speaker',
  'studio.layout.split': 'Split',
  'studio.layout.fit': 'Fit',
  'studio.layout.slideSpeaker': 'Slide + speaker',

  // The line under the preview: "Auto framing: speaker close-up, then whole frame."
  'studio.framingNote.auto': 'Auto framing: {segments}.',
  'studio.framingNote.chosen': 'Framing: {segments}.',
  'studio.framingNote.then': ', then ',
  'studio.framingNote.speaker': 'speaker close-up',
  'studio.framingNote.split': 'two people split',
  'studio.framingNote.fit': 'whole frame',
  'studio.framingNote.slideSpeaker': 'slide with the speaker below',
  'studio.framingNote.noOne':
    'No one to follow in this clip: it is fitted whole over a blurred copy of itself.',
  'studio.framingNote.light': 'The picture under the captions is light, so they get a dark box.',
  'studio.framingNote.busy': 'The picture under the captions is busy, so they get a heavy outline.',
  'studio.framingNote.failed':
    'The framing cannot be previewed ({message}); the preview shows a centred crop.',

  'studio.template': 'Caption template',
  // The still hint on each template's card: a word or two in that template's look.
  'studio.sample.karaoke.lit': 'WORDS',
  'studio.sample.karaoke.rest': 'FILL',
  'studio.sample.highlightBox.before': 'THE',
  'studio.sample.highlightBox.boxed': 'WORD',
  'studio.sample.popIn.shown': 'POP',
  'studio.sample.popIn.coming': 'IN',
  'studio.sample.oneWord': 'ONE',
  'studio.sample.classic': 'Calm lines',
  'studio.sample.keywordColor.plain': 'KEY',
  'studio.sample.keywordColor.coloured': 'WORDS',
  'studio.display': 'Captions show',
  'studio.display.source': 'Original language',
  'studio.display.translate': 'Translation',
  'studio.display.all': 'Original and translation',
  'studio.display.none': 'No captions',
  'studio.translateInto': 'Translate into',
  'studio.translateInto.placeholder': 'Pick a language',
  'studio.translateInto.needsLlm': '{language} (not on this server yet)',

  'studio.text.label': 'Transcript of the clip',
  'studio.text.help': 'Fix misheard words here; the captions of the words you change are re-timed.',
  'studio.text.resetByTrim':
    'The trim changed, so the text was reset to the words of the new span.',

  'studio.cuts.label': 'Cut by text',
  'studio.cuts.help':
    'Click a word to cut it, shift-click to cut up to it, double-click to cut its sentence. Click a struck-through word to bring it back.',
  'studio.cuts.length': 'Clip length {length}',
  'studio.cuts.saved': '{saved} cut',
  'studio.cuts.restoreAll': 'Bring all back',
  'studio.cuts.silences': 'Shorten pauses to {ms} ms',
  'studio.cuts.word': 'Cut "{word}"',
  'studio.cuts.wordBack': 'Bring back "{word}"',

  'studio.trim.duration': 'Duration {length}',
  'studio.trim.reset': 'Reset trim',
  'studio.trim.start': 'Clip start',
  'studio.trim.end': 'Clip end',

  'studio.preview': 'Clip preview',
  'studio.preview.analysing': 'Analysing framing…',
  'studio.preview.loading': 'Loading the preview…',
  'studio.preview.play': 'Play preview',
  'studio.preview.pause': 'Pause preview',
  'studio.preview.position': 'Preview position',
  'studio.preview.loadingCaptions': 'Loading captions',
  'studio.preview.unavailable.title': 'Caption preview unavailable',
  'studio.preview.unavailable.text':
    'This browser cannot run the caption renderer (WebAssembly and OffscreenCanvas are needed). The export still gets its captions.',
  'studio.preview.failed': 'Captions cannot be previewed',
} as const;
