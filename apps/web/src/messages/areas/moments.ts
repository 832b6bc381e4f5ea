/** What the moments/ screens say (keys `moments.*`). */
export const MOMENTS_MESSAGES = {
  // How long a clip is: "35 s", "1 min 20 s", "2 min".
  'moments.length.seconds': '{seconds} s',
  'moments.length.minutesSeconds': '{minutes} min {seconds} s',
  'moments.length.minutes': '{minutes} min',

  'moments.score.meaning.search':
    'Relevance out of 100: 70+ answers the question directly, 40–69 touches on it, under 40 barely.',
  'moments.score.meaning.viral':
    'Score out of 100: 70+ a strong clip on its own, 40–69 worth a look, under 40 ordinary talk.',
  'moments.score.virality': 'Virality score',
  'moments.score.relevance': 'Relevance score',
  'moments.score.ring.tooltip': '{label}: {score} out of 100',
  'moments.score.ring.name': '{label} {score} out of 100',
  'moments.score.badge': 'Score {score} out of 100',
  // Read before a card's score, rank, span and title by screen readers.
  'moments.card.play': 'Play moment {rank}:',
  // Under the number in a large score ring.
  'moments.score.short': 'score',

  // Why a moment scored as it did, one label per reason kind.
  'moments.reason.hook': 'Strong hook',
  'moments.reason.payoff': 'Complete thought with a payoff',
  'moments.reason.emotion': 'Emotion and emphasis',
  'moments.reason.pace': 'Good pace',
  'moments.reason.quotability': 'Quotable line',
  'moments.reason.salience': 'Central topic',
  'moments.reason.audience': 'Fits the audience',
  'moments.reason.relevance': 'Answers the question',
  'moments.reason.judge': 'AI judge',
  'moments.reason.story': 'A personal story',
  'moments.reason.whole': 'A whole thought',
  'moments.reason.penalty': 'What held it back',
  'moments.reason.points': '{points} pts',
  // A question's answer is rated on its own scale: how well it matches, not points.
  'moments.reason.match': '{percent}% match',
  // Under the reasons: the score they add up to.
  'moments.reason.total': 'Total: {score} pts',
  'moments.why.search': 'Why it matches',
  'moments.why.viral': 'Why it may go viral',

  'moments.taskNotLoaded': 'The task is not loaded yet.',
  'moments.cancel': 'Cancel',

  // Thumbs down asks why.
  'moments.thumbDown.title': "What's wrong with this moment?",
  'moments.thumbDown.text': 'Your answer helps us pick better moments for you.',
  'moments.thumbDown.reason.badSpan': 'Bad start or end',
  'moments.thumbDown.reason.notInteresting': 'Not interesting',
  'moments.thumbDown.reason.wrongTopic': 'Wrong topic',
  'moments.thumbDown.reason.transcriptErrors': 'Transcript errors',
  'moments.thumbDown.reason.other': 'Other',
  'moments.thumbDown.more': 'Tell us more',
  'moments.thumbDown.more.required': 'Required for “Other”',
  'moments.thumbDown.more.optional': 'Optional',
  'moments.thumbDown.more.placeholder': 'e.g. it starts in the middle of a sentence',
  'moments.thumbDown.send': 'Send feedback',

  // A moment's action bar (tooltips).
  'moments.actions.up': 'Good moment',
  'moments.actions.undoUp': 'Undo thumbs up',
  'moments.actions.down': 'Not a good moment',
  'moments.actions.undoDown': 'Undo thumbs down',
  'moments.actions.favourite': 'Add to favourites',
  'moments.actions.unfavourite': 'Remove from favourites',
  'moments.actions.share': 'Share: copy an unlisted link',
  'moments.actions.note': 'Create a note from this moment',
  'moments.actions.rescore': 'Score this moment again',
  'moments.actions.failed': 'That did not work. Try again.',

  'moments.transcript.more': 'Show full transcript',
  'moments.transcript.region': 'Transcript of moment {rank}',
  'moments.transcript.less': 'Show less',

  'moments.player.play': 'Play',
  'moments.player.pause': 'Pause',
  'moments.player.mute': 'Mute',
  'moments.player.unmute': 'Unmute',
  'moments.player.position': 'Position within the moment',

  // The public view of one moment (/home/moment/{id}).
  'moments.private.text':
    'Its owner has not shared it, or it no longer exists. Ask them for a new link.',
  'moments.private.home': 'Go to the home page',
  'moments.cta.title': 'Find the moments in your own videos',
  'moments.cta.text':
    'Moments turns long videos into short clips: it finds the parts most likely to go viral, adds word-by-word captions and reframes them for every platform.',
  'moments.cta.signUp': 'Sign up free',
  'moments.cta.logIn': 'I already have an account',
  'moments.view.facts': '{span} · {length} · from “{video}”',
  'moments.view.aVideo': 'a video',
  'moments.view.allOfVideo': 'All moments of this video',

  // The share dialog of a moment.
  'moments.share.published':
    'Published to Moments home: anyone can find this moment on the home page and in search, and anyone with the link can watch it.',
  'moments.share.unlisted':
    'Unlisted: only people with the link can watch this moment. It is not on the home page or in search.',
  'moments.share.copied': 'Link copied to your clipboard. {reach}',
  'moments.share.link': 'Link',
  'moments.share.copy': 'Copy',
  'moments.share.publish': 'Publish to Moments home',
  'moments.share.publish.text':
    'Also show this moment to every visitor on the home page and in search.',
  'moments.share.open': 'Open',
  'moments.share.note':
    'No account is needed to view it. Viewers see only this moment, not the whole video.',

  // /moments: all of the user's moments.
  'moments.mine.title': 'Your moments',
  'moments.mine.text': 'Every moment found in your videos, newest first.',
  'moments.mine.all': 'All',
  'moments.mine.all.empty': 'No moments yet',
  'moments.mine.all.text': 'Send a video to Moments and the moments it finds appear here.',
  'moments.mine.favourites': 'Favourites',
  'moments.mine.favourites.empty': 'No favourite moments yet',
  'moments.mine.favourites.text': 'Tap the heart on a moment to keep it here.',
  'moments.mine.clipped': 'Clipped',
  'moments.mine.clipped.empty': 'No clipped moments yet',
  'moments.mine.clipped.text': 'Moments you export as clips are collected here.',

  // Asking a video a question.
  'moments.query.yours': 'Your question',
  'moments.query.first': 'Search this video',
  'moments.query.another': 'Ask another question about this video',
  'moments.query.placeholder': 'e.g. when do they talk about pricing?',
  'moments.query.ask': 'Ask',
  'moments.query.history': 'Questions on this video',

  // /video/{taskId}/moments.
  'moments.task.search': 'Moment search',
  'moments.task.viral': 'Viral moments',
  'moments.none.search.title': 'Nothing in this video answers that',
  'moments.none.search.text': 'Try asking in other words, or ask about something else.',
  'moments.none.viral.title': 'No moment stood out',
  'moments.none.viral.text':
    'The video has no span of complete sentences that scored high enough to be a moment.',
  'moments.nowPlaying': 'Now playing · {span}',
  'moments.list.title.one': '1 moment, best first',
  'moments.list.title.other': '{count} moments, best first',

  // A task still running, or failed.
  'moments.stage.queued': 'Waiting in line',
  'moments.stage.downloading': 'Downloading the video',
  'moments.stage.probing': 'Reading the video',
  'moments.stage.transcribing': 'Transcribing the speech',
  'moments.stage.analysing': 'Finding the moments',
  'moments.stage.summary': 'Writing the summary',
  'moments.stage.finishing': 'Finishing up',
  'moments.stage.other': 'Working on it',
  'moments.status.stage': '{stage}…',
  'moments.status.allTasks': 'All video tasks',
  'moments.status.failed': 'Something went wrong while processing the video.',
  'moments.status.retry': 'You can retry it from your video tasks.',
  // Followed by the question, in bold.
  'moments.status.lookingFor': 'Looking for:',
  'moments.status.progress':
    '{percent}% done. The moments appear here as soon as the task finishes; you can leave this page meanwhile.',
  'moments.partial.heard': 'Heard so far',
  'moments.partial.upTo': 'Up to {time} ({done} of {count} parts).',
  'moments.partial.early': 'Early picks',
  'moments.partial.provisional': 'provisional',
  'moments.partial.earlyText':
    'The best moments in what has been heard so far; the final ranking follows when the whole video is done.',
} as const;
