/** What the jobs/ screens say (keys `jobs.*`): the projects tab and an export's page. */
export const JOBS_MESSAGES = {
  // An export's status badge and kind.
  'jobs.status.ready': 'Ready',
  'jobs.status.failed': 'Failed',
  'jobs.status.rendering': 'Rendering {percent}%',
  'jobs.type.VIRAL_MOMENT_EXPORT': 'Viral moment',
  'jobs.type.VIRAL_FIND_MOMENT_EXPORT': 'Search moment',
  'jobs.type.ANIMATED_CAPTION_EXPORT': 'Captioned video',
  'jobs.untitled': 'Untitled export',

  // /library/projects.
  'jobs.projects.empty': 'Clips you edit and export are kept here as projects.',
  'jobs.projects.pickMoment': 'Pick a moment to clip',
  'jobs.projects.newer': 'Newer',
  'jobs.projects.older': 'Older',
  'jobs.projects.open': 'Open {title}',
  'jobs.projects.delete': 'Delete {title}',
  'jobs.projects.deleteText':
    '“{title}” and its video file will be deleted. An export that is still rendering is stopped and its credit returned.',
  'jobs.projects.cancel': 'Cancel',
  'jobs.projects.confirmDelete': 'Delete',

  // /job/{jobId}.
  'jobs.result.logInTitle': 'Log in to see this export',
  'jobs.result.logInText':
    "Exports are kept in their owner's account. Log in to watch and download it.",
  'jobs.result.logIn': 'Log in',
  'jobs.result.notFound': 'Export not found',
  'jobs.result.notFoundText':
    'This export does not exist, was deleted, or belongs to someone else.',
  'jobs.result.loadFailed': 'Could not load the export',
  'jobs.result.seeProjects': 'See your projects',
  'jobs.result.rendering': 'Rendering your clip…',
  'jobs.result.percent': '{percent}%',
  'jobs.result.canLeave':
    'You can leave this page; you will get a notification when the video is ready.',
  'jobs.result.renderFailed': 'The video could not be rendered.',
  'jobs.result.backToEditor': 'Back to the editor',
  'jobs.result.backToVideos': 'Back to your videos',
  'jobs.result.download': 'Download MP4',
  'jobs.result.fileName': 'clip',
  'jobs.result.editAgain': 'Edit again',
  'jobs.share.copied': 'Copied',
} as const;
