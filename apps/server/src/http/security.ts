import helmet from '@fastify/helmet';
import { ERROR_CODES } from '@moments/contract';
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './auth.js';
import { AppError } from './errors.js';
import type { App } from './types.js';

/**
 * The Content-Security-Policy the SPA runs under: scripts, styles and fonts from the app itself
 * (Mantine injects style elements, hence 'unsafe-inline' for styles only), JASSUB's caption
 * renderer as a same-origin worker with WebAssembly, media and previews from blob: URLs, video
 * thumbnails from the platforms' https image hosts, realtime over the page's own WebSocket origin,
 * and no framing by other sites.
 */
const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'font-src': ["'self'", 'data:'],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'", 'ws:', 'wss:', 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Security headers on every reply, API and SPA alike. */
export async function registerSecurityHeaders(app: App): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Thumbnails and media from other origins must still load in <img>/<video>.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // Sent only over https (below): over plain http the header means nothing and would pin a
    // browser to an https this server may not have.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    // request.protocol follows X-Forwarded-Proto only from the proxies TRUST_PROXY names.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/** helmet's own default: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bodies a cross-site HTML form (or a no-preflight fetch) can send. */
const SIMPLE_BODY_TYPES = /^(text\/plain|application\/x-www-form-urlencoded)\b/i;

const csrfRefused = (why: string) =>
  new AppError(ERROR_CODES.FORBIDDEN, 403, 'This request came from another site and was refused', {
    reason: why,
  });

function sameOrigin(origin: string, request: FastifyRequest, publicUrl: string | undefined) {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    // Not a URL ('null' from a sandboxed page, or garbage): not a trusted origin.
    return false;
  }
  if (publicUrl && new URL(publicUrl).host === host) return true;
  // request.host follows X-Forwarded-Host when TRUST_PROXY names the proxy in front.
  return host === request.headers.host || host === request.host;
}

/**
 * CSRF: a state-changing call authenticated by the session cookie must come
 * from the app's own pages. Browsers send Origin (and Sec-Fetch-Site) on such requests, which a
 * page cannot forge; a foreign or `null` origin is refused. Without either header (old browsers),
 * the bodies a cross-site form can send (text/plain, form-encoded) are refused. Calls with an
 * `Authorization` bearer token carry no ambient credential and pass. Behind a proxy that rewrites
 * Host, set PUBLIC_URL (or TRUST_PROXY, for X-Forwarded-Host).
 */
export function registerCsrfGuard(app: App, options: { publicUrl?: string | undefined }): void {
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    if (request.headers.authorization?.startsWith('Bearer ')) return;
    if (!request.cookies[SESSION_COOKIE]) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin !== undefined) {
      if (!sameOrigin(origin, request, options.publicUrl)) throw csrfRefused('foreign origin');
      return;
    }
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw csrfRefused('cross-site request');
    if (SIMPLE_BODY_TYPES.test(request.headers['content-type'] ?? '')) {
      throw csrfRefused('form or text body without an origin');
    }
  });
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    // An unparseable Referer counts as an opaque origin, which no allow-list matches.
    return 'null';
  }
}
