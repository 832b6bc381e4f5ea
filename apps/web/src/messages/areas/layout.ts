/** What the layout/ says: header, menus, the bell and the top bar (keys `layout.*`). */
export const LAYOUT_MESSAGES = {
  'layout.logIn': 'Log in',
  'layout.signUp': 'Sign up',
  'layout.signUpFree': 'Sign up free',
  'layout.upgrade': 'Upgrade',
  'layout.tools': 'Tools',
  'layout.community': 'Community',
  'layout.community.intro':
    'Questions, ideas or trouble? Write to the people who run this server; they answer by email.',
  'layout.accountSettingsFor': 'Account settings for {name}',
  'layout.brandHome': '{brand} home',
  'layout.menu.home': 'Home',
  'layout.menu.plan': 'Plan',
  'layout.notifications': 'Notifications',
  'layout.notifications.unread': 'Notifications, {count} unread',
  'layout.notifications.markAllRead': 'Mark all as read',
  'layout.notifications.livePaused': 'Live updates paused: {reason}',
  'layout.notifications.emptyText': 'Finished exports and video tasks will show up here.',
  'layout.notifications.seeAll': 'See all notifications',
  'layout.video.views': '{views} views',
  'layout.video.uploaded': 'Uploaded file',
  'layout.video.from': 'From {source}',
} as const;
