import path from 'node:path';
import type { AppConfig } from '../config/index.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export { registerFileRoutes } from './file-routes.js';
export { FileUrls, loadAppSecret } from './file-urls.js';
export { checkStorage } from './storage-check.js';
export { LocalStorage } from './local-storage.js';
export { S3Storage } from './s3-storage.js';
export { StorageNotFoundError, type Storage } from './storage.js';

/**
 * The configured driver: DATA_DIR/files by default, a bucket with STORAGE_DRIVER=s3 (its local
 * copies go to `tmpDir`, the process's work folder).
 */
export function createStorage(
  config: AppConfig,
  tmpDir = path.join(config.DATA_DIR, 'tmp'),
): Storage {
  if (config.STORAGE_DRIVER === 's3') {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      tmpDir,
    });
  }
  return new LocalStorage(path.join(config.DATA_DIR, 'files'));
}
