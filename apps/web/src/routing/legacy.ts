/**
 * Legacy links under /home/ or /{product}_share/ are rewritten to today's routes.
 * Pure so it is unit-tested; the router calls it before matching anything else.
 */

export interface LocationParts {
  pathname: string;
  /** `?a=b` or empty */
  search: string;
  /** `#x` or empty */
  hash: string;
}

/** `/home/...` or any `/<word>_share/...`; the legacy path follows the prefix. */
const LEGACY_PREFIX = /^\/(?:home|[A-Za-z0-9-]+_share)(\/.*)$/;

function withQuery(path: string, params: URLSearchParams, hash: string): string {
  const search = params.toString();
  return `${path}${search ? `?${search}` : ''}${hash}`;
}

/** Returns the address a legacy link stands for, or null when the location is not a legacy link. */
export function rewriteLegacyLink({ pathname, search, hash }: LocationParts): string | null {
  const match = LEGACY_PREFIX.exec(pathname);
  if (!match) return null;
  const legacyPath = (match[1] ?? '').replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(search);
  const id = params.get('id');
  params.delete('id');
  const encodedId = id ? encodeURIComponent(id) : null;

  switch (legacyPath) {
    case '/support/userFeedback':
      params.set('feedback', '1');
      return withQuery('/settings/faq', params, hash);
    case '/account/subscription':
      return withQuery('/settings/plan', params, hash);
    case '/note/all':
      return withQuery('/library/notes', params, hash);
    case '/landing':
      return withQuery('/invite/landing', params, hash);
    case '/sharesummary':
      return encodedId ? withQuery(`/s/${encodedId}`, params, hash) : null;
    case '/note/detail':
      return encodedId ? withQuery(`/note/detail/${encodedId}`, params, hash) : null;
    case '/note':
      if (!encodedId) return null;
      params.set('note', '1');
      return withQuery(`/s/${encodedId}`, params, hash);
    default:
      return null;
  }
}
