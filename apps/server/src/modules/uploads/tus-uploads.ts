import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ERROR_CODES, ERROR_STATUS } from '@moments/contract';
import { ACCEPTED_UPLOAD_EXTENSIONS } from '@moments/media/probe';
import { FileStore } from '@tus/file-store';
import { Server, type ServerOptions } from '@tus/server';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { isUuid } from '../../db/owned.js';
import { safeDisplayName } from './display-name.js';
import type { UploadsService } from './uploads.service.js';

export const TUS_PATH = '/api/upload/tus';
/** Unfinished resumable uploads are kept this long, then swept. */
const UNFINISHED_UPLOAD_TTL_MS = 24 * 3600 * 1000;

/** Where resumable uploads' chunks and metadata live, and for how long unfinished ones are kept. */
const tusFileStore = (directory: string) =>
  new FileStore({ directory, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS });

/**
 * Removes unfinished uploads older than a day from `directory`; returns how many. Run hourly as
 * the `upload-sweep` job kind.
 */
export function sweepAbandonedUploads(directory: string): Promise<number> {
  return tusFileStore(directory).deleteExpired();
}

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

/** A tus hook failure the client reads as our usual `{ code, message, data }` envelope. */
const tusFailure = (status: number, code: string, message: string) => ({
  status_code: status,
  body: JSON.stringify({ code, message, data: null }),
});

/**
 * Resumable uploads (tus protocol) for multi-GB files: chunks land in DATA_DIR/tus, and the
 * finished file goes through the same validation and storage as a plain upload. The final
 * PATCH answers the video meta envelope, so tus-js-client's onSuccess can read it.
 */
export class TusUploads {
  private readonly owners = new WeakMap<IncomingMessage, string>();
  private readonly datastore: FileStore;
  private readonly server: Server;

  constructor(
    private readonly uploads: UploadsService,
    options: {
      directory: string;
      maxBytes: number;
      log: (error: unknown) => void;
      /** An upload was accepted: what the task after it needs may start meanwhile. */
      started?: () => void;
    },
  ) {
    this.datastore = tusFileStore(options.directory);
    this.server = new Server({
      path: TUS_PATH,
      datastore: this.datastore,
      relativeLocation: true,
      maxSize: options.maxBytes,
      namingFunction: () => randomUUID(),
      onUploadCreate: async (req, upload) => {
        const owner = this.ownerOf(req);
        const name = safeDisplayName(upload.metadata?.filename ?? upload.metadata?.name ?? '');
        // Refused before any byte is sent; the content itself is checked once it has arrived.
        const extension = path.extname(name).slice(1).toLowerCase();
        if (!(ACCEPTED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
          throw tusFailure(
            ERROR_STATUS.UNSUPPORTED_EXTENSION,
            ERROR_CODES.UNSUPPORTED_EXTENSION,
            `Only ${ACCEPTED_UPLOAD_EXTENSIONS.join(', ')} videos can be uploaded.`,
          );
        }
        options.started?.();
        // The owner is ours to set: whatever the client put in the metadata is overwritten.
        return { metadata: { ...upload.metadata, filename: name, owner } };
      },
      onUploadFinish: async (req, upload) => {
        try {
          const meta = await this.uploads.ingest({
            userId: this.ownerOf(req),
            uploadId: upload.id,
            file: path.join(options.directory, upload.id),
            originalName: upload.metadata?.filename ?? '',
          });
          return {
            status_code: 200,
            headers: { 'Content-Type': 'application/json; charset=utf-8' },
            body: JSON.stringify(ok(meta)),
          };
        } catch (error) {
          if (error instanceof AppError) throw tusFailure(error.status, error.code, error.message);
          throw error;
        } finally {
          // ingest consumed the data file; the tus record goes too, so the id is spent.
          await this.datastore.configstore.delete(upload.id).catch(() => undefined);
        }
      },
      onResponseError: (_req, error) => {
        if (error instanceof Error) {
          options.log(error);
          return tusFailure(500, ERROR_CODES.INTERNAL, 'Something went wrong on our side');
        }
        if (error.body.startsWith('{')) return error;
        const code =
          error.status_code === 413
            ? ERROR_CODES.PAYLOAD_TOO_LARGE
            : error.status_code === 404 || error.status_code === 410
              ? ERROR_CODES.NOT_FOUND
              : error.status_code >= 500
                ? ERROR_CODES.INTERNAL
                : ERROR_CODES.BAD_REQUEST;
        return tusFailure(error.status_code, code, error.body.trim());
      },
    });
  }

  /** True when `uploadId` is an unfinished resumable upload that `userId` started. */
  async isOwnedBy(uploadId: string, userId: string): Promise<boolean> {
    if (!isUuid(uploadId)) return false;
    // No such upload (finished, swept or never started): not the caller's.
    const upload = await this.datastore.getUpload(uploadId).catch(() => null);
    return upload?.metadata?.owner === userId;
  }

  /** Hands a raw request from an authenticated user to the tus protocol handler. */
  async handle(userId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.owners.set(req, userId);
    await this.server.handle(req, res);
  }

  private ownerOf(req: TusRequest): string {
    const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const owner = raw && this.owners.get(raw);
    if (!owner) throw tusFailure(401, ERROR_CODES.UNAUTHORIZED, 'Please log in to continue');
    return owner;
  }
}
