import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import {
  envelopeOf,
  ERROR_CODES,
  UPLOADED_FILE_ERRORS,
  UploadedVideoMeta,
} from '@moments/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../../config/index.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { formatBytes } from './display-name.js';
import { TUS_PATH, TusUploads } from './tus-uploads.js';
import type { UploadLimitsGuard } from './upload-limits.js';
import type { UploadsService } from './uploads.service.js';

/** What starting an upload can answer besides the file's own faults: the plan's limits. */
const UPLOAD_LIMIT_ERRORS = [
  ERROR_CODES.UPLOAD_RATE_LIMITED,
  ERROR_CODES.STORAGE_QUOTA_EXCEEDED,
] as const;

export interface UploadRoutesDeps {
  config: Pick<AppConfig, 'DATA_DIR' | 'UPLOAD_MAX_BYTES'>;
  /** This process's work folder: partial uploads a crash leaves are swept from it at start. */
  workRoot: string;
  uploads: UploadsService;
  /** The plan's upload rate and storage room, checked as an upload starts. */
  uploadLimits: UploadLimitsGuard;
  /**
   * An upload was accepted: a task usually follows, so its speech engine starts and loads its
   * model while the bytes arrive instead of after (this process's workers only).
   */
  uploadStarted?: () => void;
}

const tooLarge = (maxBytes: number) =>
  new AppError(
    ERROR_CODES.PAYLOAD_TOO_LARGE,
    413,
    `The file is larger than the ${formatBytes(maxBytes)} upload limit.`,
  );

/**
 * Video uploads (mp4, mov, webm): `POST /api/upload` for a plain multipart upload,
 * `/api/upload/tus` for resumable ones, `GET /api/upload/{id}` for an upload's video meta.
 * Routes live in their own scope so the multipart parser is registered only here.
 */
export async function registerUploadRoutes(app: App, deps: UploadRoutesDeps): Promise<void> {
  const maxBytes = deps.config.UPLOAD_MAX_BYTES;
  const tmpDir = deps.workRoot;
  await fs.mkdir(tmpDir, { recursive: true });
  const { uploads, uploadLimits: limits } = deps;
  const tus = new TusUploads(uploads, {
    directory: path.join(deps.config.DATA_DIR, 'tus'),
    maxBytes,
    log: (error) => app.log.error({ err: error }, 'resumable upload failed'),
    started: deps.uploadStarted,
  });
  // Abandoned resumable uploads are swept by the `upload-sweep` job kind (queue/job-kinds.ts).

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
    });

    scope.post(
      '/api/upload',
      {
        preHandler: requireUser,
        config: { errors: [...UPLOADED_FILE_ERRORS, ...UPLOAD_LIMIT_ERRORS] },
        schema: {
          tags: ['upload'],
          summary: 'Upload a video (multipart field `file`: mp4, mov or webm)',
          multipart: { fields: { file: 'file' }, required: ['file'] },
          response: { 200: envelopeOf(UploadedVideoMeta) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        if (!request.isMultipart()) {
          throw badRequest('Send the video as multipart/form-data in a field named "file".');
        }
        // Refuse early what cannot fit; the streamed byte count below is what really counts.
        const declared = Number(request.headers['content-length']) || 0;
        if (declared > maxBytes + 1024 * 1024) {
          throw tooLarge(maxBytes);
        }
        // The plan's rate and room, from the declared length, before a byte is stored.
        await limits.assertCanStart(user.id, declared);
        deps.uploadStarted?.();
        const part = await request.file().catch(malformedMultipart);
        if (!part || part.fieldname !== 'file') {
          part?.file.resume();
          throw badRequest('Send the video in a multipart field named "file".');
        }
        // Streamed to disk: a multi-GB file never sits in memory.
        const received = path.join(tmpDir, `upload-${randomUUID()}.part`);
        try {
          await pipeline(part.file, createWriteStream(received));
          if (part.file.truncated) throw tooLarge(maxBytes);
        } catch (error) {
          await fs.rm(received, { force: true });
          if (part.file.truncated || isFileTooLarge(error)) throw tooLarge(maxBytes);
          // The disk (a syscall failed) is ours; anything else broke in the client's body.
          if ((error as { syscall?: string }).syscall) throw error;
          malformedMultipart(error);
        }
        return ok(
          await uploads.ingest({ userId: user.id, file: received, originalName: part.filename }),
        );
      },
    );
  });

  registerUploadRecordRoutes(app, uploads);

  await app.register(async (scope) => {
    // tus reads PATCH bodies itself from the raw request.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null),
    );
    const forwardToTus = async (request: FastifyRequest, reply: FastifyReply) => {
      const user = currentUser(request);
      const uploadId = (request.params as { '*'?: string })['*'];
      // Another user's upload id answers exactly like a missing one.
      if (uploadId !== undefined && !(await tus.isOwnedBy(uploadId, user.id))) {
        throw notFound('Upload');
      }
      // A creation declares its length: the plan's rate and room are checked before any byte
      // (one longer than the file limit is left to tus, which answers it 413).
      const declared = Number(request.headers['upload-length']) || 0;
      if (uploadId === undefined && request.method === 'POST' && declared <= maxBytes) {
        await limits.assertCanStart(user.id, declared);
        deps.uploadStarted?.();
      }
      reply.hijack();
      await tus.handle(user.id, request.raw, reply.raw);
    };
    const routeOptions = {
      preHandler: requireUser,
      schema: { hide: true },
      config: { errors: [...UPLOAD_LIMIT_ERRORS] },
    };
    scope.all(TUS_PATH, routeOptions, forwardToTus);
    scope.all(`${TUS_PATH}/*`, routeOptions, forwardToTus);
  });
}

/** An upload's video meta, and its deletion. */
function registerUploadRecordRoutes(app: App, uploads: UploadsService) {
  const route = jsonRoutes(app, ['upload']);
  route.user(
    'get',
    '/api/upload/:id',
    {
      summary: "An upload's video meta (the body to start a task with)",
      params: z.object({ id: z.string().min(1).max(100) }),
      data: UploadedVideoMeta,
    },
    ({ userId, params }) => uploads.getVideoMeta(userId, params.id),
  );

  route.user(
    'delete',
    '/api/upload/:id',
    {
      summary:
        'Delete an upload for good: its file and thumbnail leave storage and its links stop working (409 while a task still processes it)',
      params: z.object({ id: z.string().min(1).max(100) }),
      data: z.null(),
      errors: [ERROR_CODES.UPLOAD_IN_USE],
    },
    ({ userId, params }) => uploads.delete(userId, params.id),
  );
}

/** busboy's complaints (no boundary, a body cut short) are the client's malformed body: 400. */
function malformedMultipart(error: unknown): never {
  if (isFileTooLarge(error)) throw error;
  throw badRequest(`The multipart/form-data body is malformed: ${(error as Error).message}`);
}

function isFileTooLarge(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ||
      (error as { statusCode?: number }).statusCode === 413)
  );
}
