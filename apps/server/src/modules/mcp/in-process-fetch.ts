import type { HTTPMethods } from 'fastify';
import type { App } from '../../http/types.js';

/** Replies that carry no body (a Response refuses one for them). */
const BODILESS = new Set([204, 205, 304]);

/**
 * A fetch that sends the request through `app.inject`: the whole API (auth hook, CSRF guard,
 * validation, idempotency, rate limits, the error envelope) without a socket, so it works
 * whatever address the server listens on and however many processes serve it.
 */
export function inProcessFetch(app: App): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const requestHeaders: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      requestHeaders[name] = value;
    });
    const reply = await app.inject({
      method: request.method as HTTPMethods,
      url: `${url.pathname}${url.search}`,
      headers: requestHeaders,
      payload,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    return new Response(BODILESS.has(reply.statusCode) ? null : new Uint8Array(reply.rawPayload), {
      status: reply.statusCode,
      headers,
    });
  };
}
