import { describe, expect, it } from 'vitest';
import {
  activeBottomMenuItem,
  activeMenuItem,
  homeFallbackHref,
  isChunkLoadError,
  isMenuRoot,
  loginRedirectHref,
  safeRedirectTarget,
  topBarTitleKind,
} from './paths';

describe('login redirects', () => {
  it('sends the visitor to /login with the path and query to come back to', () => {
    const href = loginRedirectHref('/library/moments', '?sort=new&q=a b');
    const url = new URL(href, 'https://m.test');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/library/moments?sort=new&q=a b');
  });

  it('only returns to same-site paths after login', () => {
    expect(safeRedirectTarget('/settings/plan?type=yearly')).toBe('/settings/plan?type=yearly');
    expect(safeRedirectTarget(null)).toBe('/home');
    expect(safeRedirectTarget('https://evil.example/')).toBe('/home');
    expect(safeRedirectTarget('//evil.example/x')).toBe('/home');
    expect(safeRedirectTarget('/\\evil.example')).toBe('/home');
    expect(safeRedirectTarget('/login?redirect=/x')).toBe('/home');
  });

  it('keeps query and hash when an unknown route falls back to /home', () => {
    expect(homeFallbackHref('?url=https%3A%2F%2Fx', '#top')).toBe('/home?url=https%3A%2F%2Fx#top');
    expect(homeFallbackHref('', '')).toBe('/home');
  });
});

describe('menus and top bar', () => {
  it('highlights library for all library tabs and plan for the plan settings tab', () => {
    for (const tab of ['videoTasks', 'moments', 'projects', 'notes']) {
      expect(activeMenuItem(`/library/${tab}`)).toBe('library');
    }
    expect(activeMenuItem('/home')).toBe('home');
    expect(activeMenuItem('/home/moment/1')).toBe('home');
    expect(activeMenuItem('/settings/plan')).toBe('plan');
    expect(activeMenuItem('/settings/profile')).toBe('settings');
    expect(activeMenuItem('/invite')).toBe('invite');
    expect(activeMenuItem('/notification')).toBe('notifications');
    expect(activeMenuItem('/privacy-policy')).toBeNull();
  });

  it('lights Settings in the bottom menu on the plan page, which has no entry there', () => {
    expect(activeBottomMenuItem('/settings/plan')).toBe('settings');
    expect(activeBottomMenuItem('/settings/plan?type=yearly')).toBe('settings');
    expect(activeBottomMenuItem('/library/moments')).toBe('library');
    expect(activeBottomMenuItem('/notification')).toBe('notifications');
  });

  it('titles library, settings and video routes', () => {
    expect(topBarTitleKind('/library/notes')).toBe('library');
    expect(topBarTitleKind('/settings/faq')).toBe('settings');
    expect(topBarTitleKind('/moment/m1/clip')).toBe('video');
    expect(topBarTitleKind('/home/moment/m1')).toBe('video');
    expect(topBarTitleKind('/job/j1')).toBe('video');
    expect(topBarTitleKind('/video/t1/moments')).toBe('video');
    expect(topBarTitleKind('/home')).toBeNull();
    expect(topBarTitleKind('/libraryx')).toBeNull();
  });

  it('shows a back button only away from menu roots', () => {
    expect(isMenuRoot('/home')).toBe(true);
    expect(isMenuRoot('/library/moments')).toBe(true);
    expect(isMenuRoot('/settings/profile')).toBe(true);
    expect(isMenuRoot('/moment/m1/clip')).toBe(false);
    expect(isMenuRoot('/job/j1')).toBe(false);
  });
});

describe('isChunkLoadError (route load failure)', () => {
  it('recognises a lazy chunk that failed to load and nothing else', () => {
    expect(
      isChunkLoadError(
        new TypeError('Failed to fetch dynamically imported module: https://m.test/assets/x.js'),
      ),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError({ status: 404 })).toBe(false);
  });
});
