import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ConfigError, type AppConfig } from '../config/index.js';
import type { Storage } from './storage.js';

type S3Settings = Pick<
  AppConfig,
  'STORAGE_DRIVER' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'DATA_DIR'
>;

/**
 * Proves at start that files can be kept: writes a small object, reads it back and deletes it.
 * A storage that cannot (no S3 credentials, a bucket that does not exist, a refused key, a
 * folder that cannot be written) refuses the start with the fix, instead of a healthy server
 * whose first upload answers 500.
 */
export async function checkStorage(storage: Storage, config: S3Settings): Promise<void> {
  const key = `probe/${os.hostname().replace(/[^A-Za-z0-9_.-]/g, '_')}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const content = Buffer.from(`moments storage probe ${new Date().toISOString()}\n`);
  try {
    await storage.putStream(key, Readable.from([content]), 'text/plain');
    const read = await buffer(await storage.createReadStream(key));
    if (!read.equals(content))
      throw new Error('the probe object read back differs from the one written');
    await storage.delete(key);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${storageProblem(error, config)}`);
  }
}

/** The operator's view of a storage failure: what is wrong, and which setting fixes it. */
export function storageProblem(error: unknown, config: S3Settings): string {
  const name = (error as { name?: string } | null)?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (config.STORAGE_DRIVER !== 's3') {
    return `DATA_DIR: files cannot be written and read in ${config.DATA_DIR}/files (${message}): make the folder writable by the server's user`;
  }
  const where = `bucket ${config.S3_BUCKET} at ${config.S3_ENDPOINT ?? 'AWS'} (region ${config.S3_REGION})`;
  switch (name) {
    case 'CredentialsProviderError':
      return (
        `S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: no S3 credentials were found for the ${where}: ` +
        "set both to the bucket's access key (or give the machine an instance role or AWS_* credentials)"
      );
    case 'NoSuchBucket':
      return `S3_BUCKET: the ${where} does not exist: create it (e.g. \`aws s3 mb s3://${config.S3_BUCKET}\`${config.S3_ENDPOINT ? ` --endpoint-url ${config.S3_ENDPOINT}` : ''}) or set S3_BUCKET to an existing one`;
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
      return `S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: the ${where} refused the credentials (${name}): check the key pair`;
    case 'AccessDenied':
    case 'Forbidden':
      return `S3_ACCESS_KEY_ID: the key may not write, read and delete objects in the ${where} (${name}): grant it s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket`;
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return `S3_REGION: the ${where} is in another region (${name}): set S3_REGION to the bucket's region`;
    default:
      return `S3_ENDPOINT, S3_BUCKET: the ${where} could not be written and read (${name || 'error'}: ${message}): check that S3_ENDPOINT is reachable from this machine and the bucket exists`;
  }
}
