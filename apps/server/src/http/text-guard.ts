import { ERROR_CODES } from '@moments/contract';
import { z } from 'zod';
import { AppError } from './errors.js';
import type { App } from './types.js';

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/**
 * The guard's rule as the OpenAPI document states it on every string a route reads: no NUL. (Lone
 * surrogates cannot be sent in UTF-8 JSON or a URL at all, only as `\uD800` escapes; a pattern
 * naming them would refuse emoji in engines that match UTF-16 units, so it leaves them out.)
 */
export const NUL_FREE_PATTERN = '^[^\\u0000]*$';

/** Nesting deeper than this is not walked further (bodies are limited to 1 MiB anyway). */
const MAX_DEPTH = 32;

/**
 * The first string in `value` that no database column can hold as written: a NUL character
 * (PostgreSQL text refuses `\u0000`) or a lone surrogate (not Unicode; the driver would store
 * U+FFFD in its place). Returns where it is, as a dotted path, or undefined.
 */
function findUnstorableText(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') {
    return storable(value) ? undefined : path || '(value)';
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  if (Buffer.isBuffer(value)) return undefined; // raw bodies (signed webhooks) are not text
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    // A key is stored too when the object is kept as JSON.
    if (!storable(key)) return at;
    const found = findUnstorableText(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * A part a route takes as anything (`z.unknown()`) is read only through the route's own parse,
 * which keeps what it needs (a flag) and stores nothing as sent: there is nothing to refuse.
 */
function takesAnything(schema: unknown): boolean {
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodUnknown;
}

/**
 * One guard for every route: a body, query or path parameter holding text no database
 * column can store is refused with 400 VALIDATION_FAILED before the handler sees it, instead of
 * failing deep inside PostgreSQL with a 500.
 */
export function registerTextGuard(app: App): void {
  // After validation, on what the route's schema let through: fields it does not read are already
  // stripped (never stored, so never refused), and a stray query on a route without a schema is
  // ignored as before, so VALIDATION_FAILED stays an error the route documents.
  app.addHook('preHandler', async (request) => {
    const schema = request.routeOptions.schema ?? {};
    for (const [part, value, read] of [
      ['params', request.params, schema.params],
      ['query', request.query, schema.querystring],
      ['body', request.body, schema.body],
    ] as const) {
      if (!read || takesAnything(read)) continue;
      const at = findUnstorableText(value);
      if (at) {
        throw new AppError(
          ERROR_CODES.VALIDATION_FAILED,
          400,
          `Invalid ${part}: ${at} holds a NUL character or a broken Unicode sequence`,
          { part, path: at },
        );
      }
    }
  });
}
