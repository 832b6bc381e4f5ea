/** What the routing/ screens say: a page that failed, a new version (keys `routing.*`). */
export const ROUTING_MESSAGES = {
  'routing.error.title': 'Something went wrong',
  'routing.error.text': 'This page hit an unexpected error. Reloading usually helps.',
  'routing.reload': 'Reload',
  'routing.goHome': 'Go home',
  'routing.update.title': 'A new version is available',
  'routing.update.text':
    'Moments was updated while this tab was open. Reload to get the latest version.',
} as const;
