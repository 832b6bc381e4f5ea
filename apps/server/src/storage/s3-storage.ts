import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition, contentTypeForKey } from './content-types.js';
import {
  assertValidKey,
  assertValidPrefix,
  StorageNotFoundError,
  type ByteRange,
  type Storage,
} from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For S3-compatible servers (MinIO, Garage, moto...); absent means AWS. */
  endpoint?: string;
  /**
   * The address browsers reach the bucket at, for presigned downloads, when it differs from
   * `endpoint` (a bucket on a private network behind a public name); absent: `endpoint`.
   */
  publicEndpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Where `withLocalFile` downloads to; default the OS temp folder. */
  tmpDir?: string;
}

/** Objects in one bucket, key for key (AWS SDK v3; multipart uploads through lib-storage). */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  /** Signs the links browsers open: the same client unless a public endpoint is set. */
  private readonly presignClient: S3Client;
  readonly bucket: string;
  private readonly tmpDir: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.tmpDir = options.tmpDir ?? os.tmpdir();
    const clientFor = (endpoint: string | undefined) =>
      new S3Client({
        region: options.region,
        endpoint,
        forcePathStyle: options.forcePathStyle ?? true,
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
        // Checksums only where S3 demands them: several S3-compatible servers reject the newer
        // default trailing checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = clientFor(options.endpoint);
    this.presignClient =
      options.publicEndpoint && options.publicEndpoint !== options.endpoint
        ? clientFor(options.publicEndpoint)
        : this.client;
  }

  async putFile(key: string, localPath: string, options: { move?: boolean } = {}): Promise<void> {
    await this.putStream(key, createReadStream(localPath));
    if (options.move) await fs.rm(localPath, { force: true });
  }

  async putStream(key: string, stream: Readable, contentType?: string): Promise<void> {
    assertValidKey(key);
    // Multipart above 8 MiB parts, so multi-GB sources never sit in memory whole.
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: stream,
        ContentType: contentType ?? contentTypeForKey(key),
      },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
  }

  async withLocalFile<T>(
    key: string,
    fn: (localPath: string) => Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    const folder = await fs.mkdtemp(path.join(this.tmpDir, 'moments-s3-'));
    try {
      return await fn(await this.localCopy(key, folder, options));
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }

  async localCopy(key: string, dir: string, options: { signal?: AbortSignal } = {}) {
    assertValidKey(key);
    const file = path.join(
      dir,
      `s3-${createHash('sha256').update(key).digest('hex').slice(0, 16)}${path.extname(key)}`,
    );
    if (existsSync(file)) return file;
    const partial = `${file}.partial-${randomUUID().slice(0, 8)}`;
    try {
      const body = await this.createReadStream(key, {}, options.signal);
      await pipeline(body, createWriteStream(partial), { signal: options.signal });
      await fs.rename(partial, file);
      return file;
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
  }

  async createReadStream(
    key: string,
    range: ByteRange = {},
    signal?: AbortSignal,
  ): Promise<Readable> {
    assertValidKey(key);
    const wanted =
      range.start !== undefined || range.end !== undefined
        ? `bytes=${range.start ?? 0}-${range.end ?? ''}`
        : undefined;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: wanted }),
        { abortSignal: signal },
      );
      return object.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidPrefix(prefix);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: continuationToken,
        }),
      );
      const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys, Quiet: true },
          }),
        );
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /** A presigned GET the browser fetches from the bucket directly (SigV4 allows at most 7 days). */
  async presignGetUrl(
    key: string,
    options: { expiresInSec: number; downloadName?: string },
  ): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(
      this.presignClient,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: contentTypeForKey(key),
        ResponseContentDisposition: options.downloadName
          ? attachmentDisposition(options.downloadName)
          : undefined,
      }),
      { expiresIn: Math.min(options.expiresInSec, 7 * 24 * 3600) },
    );
  }
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' ||
      error.name === 'NotFound' ||
      error.$metadata.httpStatusCode === 404)
  );
}
