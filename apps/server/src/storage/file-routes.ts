import { ERROR_CODES } from '@moments/contract';
import { z } from 'zod';
import { AppError, notFound } from '../http/errors.js';
import type { App } from '../http/types.js';
import { attachmentDisposition, contentTypeForKey } from './content-types.js';
import type { FileUrls } from './file-urls.js';
import type { Storage } from './storage.js';

const forbidden = () =>
  new AppError(ERROR_CODES.FORBIDDEN, 403, 'This file link is invalid or has expired');

/**
 * `GET /files/<key>?exp&sig[&dn]`: serves a stored file to whoever holds a valid signed link,
 * with byte ranges so the browser's video player can seek.
 */
export function registerFileRoutes(app: App, deps: { storage: Storage; fileUrls: FileUrls }) {
  app.get(
    '/files/*',
    {
      schema: {
        hide: true,
        querystring: z.object({
          exp: z.string().optional(),
          sig: z.string().optional(),
          dn: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!deps.fileUrls.verify(key, request.query)) throw forbidden();
      const stat = await deps.storage.stat(key);
      if (!stat) throw notFound('File');

      const range = parseByteRange(request.headers.range, stat.size);
      if (range === 'unsatisfiable') {
        return reply
          .status(416)
          .header('content-range', `bytes */${stat.size}`)
          .send({ code: ERROR_CODES.BAD_REQUEST, message: 'Range not satisfiable', data: null });
      }
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', contentTypeForKey(key))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600');
      if (request.query.dn) {
        reply.header('content-disposition', attachmentDisposition(request.query.dn));
      }
      if (range) {
        reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
          .header('content-length', range.end - range.start + 1);
        return reply.send(await deps.storage.createReadStream(key, range));
      }
      reply.header('content-length', stat.size);
      return reply.send(await deps.storage.createReadStream(key));
    },
  );
}

/**
 * One `bytes=` range (RFC 9110 §14.1.2) clamped to the file. Several ranges or a malformed
 * header answer null: the whole file is sent, which the RFC allows.
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
