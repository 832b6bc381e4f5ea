import { ERROR_CODES } from '@moments/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { envelopeOf } from '@moments/contract';
import { currentUser, requireUser } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { AppError, notFound } from '../http/errors.js';
import type { App } from '../http/types.js';
import { attachmentDisposition, contentTypeForKey } from './content-types.js';
import type { FileUrls } from './file-urls.js';
import { assertValidKey, type Storage } from './storage.js';

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
      reply.header('cache-control', 'private, max-age=3600');
      if (request.query.dn) {
        reply.header('content-disposition', attachmentDisposition(request.query.dn));
      }
      return sendStoredFile(request, reply, deps.storage, key);
    },
  );

  app.post(
    '/api/external_file/refresh_url',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.INVALID_URL, ERROR_CODES.NOT_FOUND] },
      schema: {
        tags: ['files'],
        summary: 'A fresh signed link for an expired one, for files the user owns',
        body: z.object({ url: z.string().min(1).max(4096) }),
        response: { 200: envelopeOf(z.object({ url: z.string() })) },
      },
    },
    async (request) => {
      const link = new URL(request.body.url, 'http://moments.invalid');
      if (!link.pathname.startsWith('/files/')) {
        throw new AppError(ERROR_CODES.INVALID_URL, 422, 'This is not a Moments file link');
      }
      const key = storageKeyOf(link.pathname.slice('/files/'.length));
      // Owner-scoped: every user file lives under users/<id>/; anything else (an encoded `..`,
      // a malformed escape) answers 404.
      if (
        !key ||
        !key.startsWith(`users/${currentUser(request).id}/`) ||
        !(await deps.storage.stat(key))
      ) {
        throw notFound('File');
      }
      const downloadName = link.searchParams.get('dn') ?? undefined;
      return ok({
        url: await deps.fileUrls.signFileUrl(key, {
          expiresInSec: REFRESHED_LINK_TTL_SEC,
          ...(downloadName ? { downloadName } : {}),
        }),
      });
    },
  );
}

/** The storage key a link's path names, or null when it is not a valid key once decoded. */
function storageKeyOf(encoded: string): string | null {
  try {
    const key = decodeURIComponent(encoded);
    assertValidKey(key);
    return key;
  } catch {
    // Badly encoded or not a valid key: answered as not found.
    return null;
  }
}

/** Sends a stored file with byte-range support (the video player seeks with ranges). */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  key: string,
) {
  const stat = await storage.stat(key);
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
    .header('x-content-type-options', 'nosniff');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await storage.createReadStream(key, range));
  }
  reply.header('content-length', stat.size);
  return reply.send(await storage.createReadStream(key));
}

/** Refreshed links live as long as the ones the API hands out with moment views. */
const REFRESHED_LINK_TTL_SEC = 6 * 3600;

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
