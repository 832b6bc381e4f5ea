/** What the notifications/ screens say (keys `notifications.*`): the bell, toasts, dialog and page. */
export const NOTIFICATIONS_MESSAGES = {
  // What a notification says (describeNotification), in the list, its toast and its dialog.
  'notifications.task.untitled': 'Your video',
  'notifications.task.failed': 'Video processing failed',
  'notifications.task.failedBody': '“{title}” could not be processed.',
  'notifications.task.failedBodyWithReason': '“{title}” could not be processed. {reason}',
  'notifications.task.ready': 'Your video is ready',
  'notifications.task.readyBody': '“{title}” has finished processing.',
  // A finished task, named by what it made.
  'notifications.task.ready.viral': 'Your moments are ready',
  'notifications.task.readyBody.viral':
    'The viral moments of “{title}” are ready to watch and clip.',
  'notifications.task.ready.search': 'Your answers are ready',
  'notifications.task.readyBody.search':
    'The moments of “{title}” that answer your question are ready.',
  'notifications.task.ready.caption': 'Your captions are ready',
  'notifications.task.readyBody.caption':
    'The captions of “{title}” are ready to style and export.',
  'notifications.export.untitled.video': 'Your video',
  'notifications.export.untitled.moment': 'Your moment',
  'notifications.export.failed': 'Export failed',
  'notifications.export.failedBody.video':
    'The export of the video “{title}” failed. Open the video to try again.',
  'notifications.export.failedBody.moment':
    'The export of the moment “{title}” failed. Open the moment to try again.',
  'notifications.export.finished': 'Export finished',
  'notifications.export.finishedBody': '“{title}” is ready to watch and download.',
  'notifications.other': 'Notification',

  // The dialog of an opened notification: where its button leads.
  'notifications.dialog.videoTasks': 'Go to my videos',
  'notifications.dialog.job': 'View export',
  'notifications.dialog.momentClip': 'View the moment',

  'notifications.item.delete': 'Delete',
  'notifications.toast.dismiss': 'Dismiss notification',

  // /notification.
  'notifications.page.title': 'Notifications',
  'notifications.page.markAllRead': 'Mark all as read',
  'notifications.page.empty': 'Finished exports and video tasks will show up here.',
  'notifications.page.loadMore': 'Load more',
  'notifications.page.end': 'That is everything.',
} as const;
