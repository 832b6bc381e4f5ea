/** What the tasks/ screens say (keys `tasks.*`): the video tasks list and a task's status. */
export const TASKS_MESSAGES = {
  // A task's status badge, its stage while it runs, and its kind.
  'tasks.status.START': 'Queued',
  'tasks.status.IN_PROGRESS': 'In progress',
  'tasks.status.DONE': 'Done',
  'tasks.status.ERROR': 'Failed',
  'tasks.stage.queued': 'Waiting to start',
  'tasks.stage.downloading': 'Downloading',
  'tasks.stage.probing': 'Reading the video',
  'tasks.stage.transcribing': 'Transcribing',
  'tasks.stage.analysing': 'Finding moments',
  'tasks.stage.summary': 'Summarising',
  'tasks.stage.finishing': 'Finishing',
  'tasks.kind.viral': 'Viral moments',
  'tasks.kind.search': 'Moment search',
  'tasks.kind.caption': 'Animated captions',

  // A row of /library/videoTasks.
  'tasks.row.untitled': 'Untitled video',
  'tasks.row.query': '“{query}”',
  'tasks.row.progress': '{percent}%',
  'tasks.row.from': 'From {source}',
  'tasks.row.viewMoments': 'View moments',
  'tasks.row.summary': 'Summary',
  'tasks.row.openCaptions': 'Open captions',
  'tasks.row.captions': 'Captions',
  'tasks.row.retry': 'Retry',
  'tasks.row.runAgain': 'Run again',
  'tasks.runAgain.text.one':
    'Moments works on “{title}” again from its video. This run costs {cost} credit, taken from your balance now.',
  'tasks.runAgain.text.other':
    'Moments works on “{title}” again from its video. This run costs {cost} credits, taken from your balance now.',
  'tasks.runAgain.confirm.one': 'Run again · {cost} credit',
  'tasks.runAgain.confirm.other': 'Run again · {cost} credits',
  'tasks.row.delete': 'Delete',

  // The list as a whole.
  'tasks.list.tryAgain': 'Try again',
  'tasks.list.empty': 'Videos you send to Moments appear here with their progress and results.',
  'tasks.list.addVideo': 'Add a video',
  'tasks.list.deleteText': '“{title}” and its moments will be removed. This cannot be undone.',
  'tasks.list.cancel': 'Cancel',
  'tasks.list.confirmDelete': 'Delete',
} as const;
