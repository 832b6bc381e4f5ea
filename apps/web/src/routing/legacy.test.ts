import { describe, expect, it } from 'vitest';
import { rewriteLegacyLink } from './legacy';

const rewrite = (href: string) => {
  const url = new URL(href, 'https://moments.test');
  return rewriteLegacyLink({ pathname: url.pathname, search: url.search, hash: url.hash });
};

describe('rewriteLegacyLink (legacy links)', () => {
  it('rewrites every legacy path under /home/', () => {
    expect(rewrite('/home/support/userFeedback')).toBe('/settings/faq?feedback=1');
    expect(rewrite('/home/account/subscription')).toBe('/settings/plan');
    expect(rewrite('/home/note/all')).toBe('/library/notes');
    expect(rewrite('/home/landing')).toBe('/invite/landing');
    expect(rewrite('/home/sharesummary?id=abc123')).toBe('/s/abc123');
    expect(rewrite('/home/note/detail?id=n42')).toBe('/note/detail/n42');
    expect(rewrite('/home/note?id=n42')).toBe('/s/n42?note=1');
  });

  it('accepts any /<product>_share/ prefix', () => {
    expect(rewrite('/moments_share/sharesummary?id=s1')).toBe('/s/s1');
    expect(rewrite('/clips_share/account/subscription')).toBe('/settings/plan');
    expect(rewrite('/video-tools_share/landing/')).toBe('/invite/landing');
  });

  it('keeps other query parameters and the hash', () => {
    expect(rewrite('/home/account/subscription?type=yearly#top')).toBe(
      '/settings/plan?type=yearly#top',
    );
    expect(rewrite('/home/sharesummary?ref=mail&id=x')).toBe('/s/x?ref=mail');
  });

  it('encodes ids so they cannot escape their path segment', () => {
    expect(rewrite('/home/note/detail?id=a%2Fb%3Fc')).toBe('/note/detail/a%2Fb%3Fc');
  });

  it('leaves current routes and incomplete legacy links alone', () => {
    expect(rewrite('/home')).toBeNull();
    expect(rewrite('/home/video/result')).toBeNull();
    expect(rewrite('/home/moment/m1')).toBeNull();
    expect(rewrite('/note/detail/n42')).toBeNull();
    expect(rewrite('/settings/plan')).toBeNull();
    expect(rewrite('/home/sharesummary')).toBeNull();
    expect(rewrite('/home/note')).toBeNull();
    expect(rewrite('/share/landing')).toBeNull();
  });
});
