import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { S3Storage } from './s3-storage.js';
import { assertValidKey, type Storage } from './storage.js';

export interface SignFileUrlOptions {
  expiresInSec: number;
  /** Set: the file downloads under this name (`Content-Disposition: attachment`). */
  downloadName?: string;
}

/** The query a signed `/files/<key>` link carries. */
export interface FileUrlQuery {
  exp?: string;
  sig?: string;
  /** download name */
  dn?: string;
}

/**
 * Links to stored files that work without a session (a `<video src>` or a shared download) but
 * only for the file and time they were made for: HMAC-signed `/files/<key>` links for the local
 * driver, presigned bucket URLs for S3.
 */
export class FileUrls {
  constructor(
    private readonly storage: Storage,
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  async signFileUrl(key: string, options: SignFileUrlOptions): Promise<string> {
    assertValidKey(key);
    if (this.storage instanceof S3Storage) return this.storage.presignGetUrl(key, options);
    const exp = Math.floor(this.now() / 1000) + Math.max(1, Math.floor(options.expiresInSec));
    const query = new URLSearchParams({ exp: String(exp) });
    if (options.downloadName) query.set('dn', options.downloadName);
    query.set('sig', this.signature(key, exp, options.downloadName));
    return `/files/${key}?${query.toString()}`;
  }

  /** True when `query` is an unexpired signature for exactly this key and download name. */
  verify(key: string, query: FileUrlQuery): boolean {
    try {
      assertValidKey(key);
    } catch {
      // Not a valid key: no signature can be valid for it.
      return false;
    }
    const exp = Number(query.exp);
    if (!query.sig || !Number.isSafeInteger(exp) || exp < Math.floor(this.now() / 1000)) {
      return false;
    }
    const expected = Buffer.from(this.signature(key, exp, query.dn));
    const given = Buffer.from(query.sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signature(key: string, exp: number, downloadName: string | undefined): string {
    return createHmac('sha256', this.secret)
      .update(`files/v1\n${key}\n${exp}\n${downloadName ?? ''}`)
      .digest('base64url');
  }
}

/**
 * The server's signing secret: APP_SECRET when set (several API instances must share it),
 * otherwise a random one made on first start and kept at DATA_DIR/secret, readable by the owner only.
 */
export async function loadAppSecret(dataDir: string, appSecret?: string): Promise<Buffer> {
  if (appSecret) {
    if (appSecret.length < 32) throw new Error('APP_SECRET must be at least 32 characters long');
    return Buffer.from(appSecret, 'utf8');
  }
  const file = path.join(dataDir, 'secret');
  try {
    return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    // `wx`: when two processes start together, the second reads the first one's secret.
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return Buffer.from(secret, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'utf8');
  }
}
