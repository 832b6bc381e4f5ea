/** Pure route decisions, kept out of components so they are unit-tested. */

/** An unauthenticated visit to a protected route goes to /login with a return query. */
export function loginRedirectHref(pathname: string, search: string): string {
  return `/login?${new URLSearchParams({ redirect: `${pathname}${search}` }).toString()}`;
}

/**
 * Where to go after logging in. Only same-site paths are honoured, so a crafted
 * `?redirect=https://evil.example` or `//evil.example` cannot send the user elsewhere.
 */
export function safeRedirectTarget(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/home';
  if (raw === '/login' || raw.startsWith('/login?') || raw.startsWith('/login/')) return '/home';
  return raw;
}

/** Anything else redirects to /home keeping query and hash. */
export function homeFallbackHref(search: string, hash: string): string {
  return `/home${search}${hash}`;
}

export type MenuItemKey = 'home' | 'library' | 'plan' | 'invite' | 'settings' | 'notifications';

/** Which side / bottom menu entry a route highlights. */
export function activeMenuItem(pathname: string): MenuItemKey | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  const within = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (path === '/' || within('/home') || within('/search')) return 'home';
  if (within('/library') || within('/moments')) return 'library';
  if (within('/settings/plan')) return 'plan';
  if (within('/invite')) return 'invite';
  if (within('/settings')) return 'settings';
  if (within('/notification')) return 'notifications';
  return null;
}

/**
 * The mobile bottom menu's entry (home, library, notifications, settings): the plan page
 * is a tab of the settings there, so it lights up Settings (it used to light nothing).
 */
export function activeBottomMenuItem(pathname: string): MenuItemKey | null {
  const active = activeMenuItem(pathname);
  return active === 'plan' ? 'settings' : active;
}

export type TopBarTitle = 'library' | 'settings' | 'video' | null;

/** The top bar title: 'Library', 'Settings', or the video's title on moment and job routes. */
export function topBarTitleKind(pathname: string): TopBarTitle {
  if (/^\/library(\/|$)/.test(pathname)) return 'library';
  if (/^\/settings(\/|$)/.test(pathname)) return 'settings';
  if (
    /^\/(home\/)?moment\/[^/]+/.test(pathname) ||
    /^\/job\/[^/]+/.test(pathname) ||
    /^\/video\/[^/]+\/(moments|summary)/.test(pathname)
  ) {
    return 'video';
  }
  return null;
}

/** Routes reached from a menu; every other page shows a back button. */
export function isMenuRoot(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return (
    path === '/' ||
    path === '/home' ||
    /^\/library(\/[^/]+)?$/.test(path) ||
    /^\/settings(\/[^/]+)?$/.test(path) ||
    path === '/notification' ||
    path === '/invite'
  );
}

/**
 * A route load failure containing 'failed to fetch' means a lazily loaded page chunk is
 * gone (usually a new version was deployed). Other browsers word the same failure differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  if (!message) return false;
  const lower = message.toLowerCase();
  return (
    lower.includes('failed to fetch') ||
    lower.includes('error loading dynamically imported module') ||
    lower.includes('importing a module script failed')
  );
}
