import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { probeMedia } from '@moments/media/probe';
import { makeTestVideo } from '@moments/media/testing';
import { installApiContract } from '../src/http/contract.js';
import { installErrorHandler } from '../src/http/error-handler.js';
import type { App } from '../src/http/types.js';
import {
  FileUrls,
  LocalStorage,
  loadAppSecret,
  registerFileRoutes,
  S3Storage,
  StorageNotFoundError,
  type Storage,
} from '../src/storage/index.js';
import { parseByteRange } from '../src/storage/file-routes.js';
import { multipartFile, signUp, startTestApp, type TestApp } from './support/app.js';
import { hasMoto, MOTO_SERVER, startMoto } from './support/moto.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { tamperedSignature } from './support/tokens.js';

// ---------- the same contract for both drivers ----------

interface Driver {
  name: string;
  skip: string | null;
  setUp(): Promise<{ storage: Storage; tearDown(): Promise<void> }>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

let tmpRoot: string;
beforeAll(async () => {
  tmpRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-storage-test-'));
});
afterAll(async () => {
  await fs.rm(tmpRoot, { recursive: true, force: true });
});

const drivers: Driver[] = [
  {
    name: 'local',
    skip: null,
    async setUp() {
      const root = await fs.mkdtemp(path.join(tmpRoot, 'files-'));
      return { storage: new LocalStorage(root), tearDown: async () => undefined };
    },
  },
  {
    name: 's3 (moto)',
    skip: hasMoto ? null : `moto_server not found at ${MOTO_SERVER}`,
    async setUp() {
      const moto = await startMoto();
      const storage = new S3Storage({
        bucket: 'moments-test',
        region: 'us-east-1',
        endpoint: moto.endpoint,
        accessKeyId: 'test',
        secretAccessKey: 'test',
        forcePathStyle: true,
        tmpDir: tmpRoot,
      });
      await storage.client.send(new CreateBucketCommand({ Bucket: storage.bucket }));
      return { storage, tearDown: () => moto.stop() };
    },
  },
];

describe.each(drivers)('storage contract: $name', (driver) => {
  let storage: Storage;
  let tearDown: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (driver.skip) return;
    ({ storage, tearDown } = await driver.setUp());
  });
  afterAll(async () => {
    await tearDown();
  });

  it('stores a stream and reads it back whole and by inclusive byte range', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    const data = Buffer.from('0123456789abcdefghij');
    await storage.putStream('users/u1/notes/a.txt', Readable.from([data]), 'text/plain');
    expect(await storage.stat('users/u1/notes/a.txt')).toEqual({ size: data.length });
    expect(await readAll(await storage.createReadStream('users/u1/notes/a.txt'))).toEqual(data);
    const middle = await storage.createReadStream('users/u1/notes/a.txt', { start: 5, end: 9 });
    expect(await text(middle)).toBe('56789');
    const tail = await storage.createReadStream('users/u1/notes/a.txt', { start: 15 });
    expect(await text(tail)).toBe('fghij');
  });

  it('stores a local file, keeping it by default and consuming it with move', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    const source = path.join(tmpRoot, `source-${driver.name.length}-${Date.now()}.bin`);
    const data = randomBytes(4096);
    await fs.writeFile(source, data);
    await storage.putFile('users/u1/copy.bin', source);
    expect(existsSync(source)).toBe(true);
    await storage.putFile('users/u1/moved.bin', source, { move: true });
    expect(existsSync(source)).toBe(false);
    for (const key of ['users/u1/copy.bin', 'users/u1/moved.bin']) {
      expect(sha256(await readAll(await storage.createReadStream(key)))).toBe(sha256(data));
    }
  });

  it('round-trips a 20 MiB stream (multipart on S3) byte for byte', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    const data = randomBytes(20 * 1024 * 1024);
    // Delivered in 1 MiB pieces, as a request body would be.
    const pieces = Array.from({ length: 20 }, (_, i) =>
      data.subarray(i * 1048576, (i + 1) * 1048576),
    );
    await storage.putStream('users/u2/big.mp4', Readable.from(pieces));
    expect(await storage.stat('users/u2/big.mp4')).toEqual({ size: data.length });
    expect(sha256(await readAll(await storage.createReadStream('users/u2/big.mp4')))).toBe(
      sha256(data),
    );
  });

  it('lends a local path for tools that need one, then cleans up any download', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    await storage.putStream('users/u1/clip.webm', Readable.from([Buffer.from('not really webm')]));
    let lent = '';
    const content = await storage.withLocalFile('users/u1/clip.webm', async (file) => {
      lent = file;
      return fs.readFile(file, 'utf8');
    });
    expect(content).toBe('not really webm');
    if (storage.driver === 's3') expect(existsSync(lent)).toBe(false);
    else expect(existsSync(lent)).toBe(true);
    await expect(storage.withLocalFile('users/u1/none.webm', async () => 1)).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
  });

  it('keeps one local copy per run folder, and stops a download when the run is cancelled', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    // A task used to download its S3 source once per stage, ignoring cancel.
    const data = randomBytes(2 * 1024 * 1024);
    await storage.putStream('users/u3/source.mp4', Readable.from([data]));
    const runFolder = await fs.mkdtemp(path.join(tmpRoot, 'run-'));
    const reads = vi.spyOn(storage, 'createReadStream');
    const first = await storage.localCopy('users/u3/source.mp4', runFolder);
    const second = await storage.localCopy('users/u3/source.mp4', runFolder);
    expect(second).toBe(first);
    expect(sha256(await fs.readFile(first))).toBe(sha256(data));
    expect(reads).toHaveBeenCalledTimes(storage.driver === 's3' ? 1 : 0);
    reads.mockRestore();

    const cancelled = await fs.mkdtemp(path.join(tmpRoot, 'run-'));
    const controller = new AbortController();
    controller.abort();
    await expect(
      storage.localCopy('users/u3/source.mp4', cancelled, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(await fs.readdir(cancelled)).toEqual([]);
    await expect(storage.localCopy('users/u3/none.mp4', cancelled)).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
  });

  it('reports missing files as null or StorageNotFoundError, and deletes idempotently', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    expect(await storage.stat('users/nobody/x.mp4')).toBeNull();
    await expect(storage.createReadStream('users/nobody/x.mp4')).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
    await storage.putStream('users/u3/gone.txt', Readable.from([Buffer.from('x')]));
    await storage.delete('users/u3/gone.txt');
    await storage.delete('users/u3/gone.txt');
    expect(await storage.stat('users/u3/gone.txt')).toBeNull();
  });

  it('deletes a folder-like prefix and nothing that merely starts with the same letters', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    const put = (key: string) => storage.putStream(key, Readable.from([Buffer.from(key)]));
    await put('users/ab/uploads/1/source.mp4');
    await put('users/ab/uploads/1/thumbnail.jpg');
    await put('users/ab/tasks/2/out.mp4');
    await put('users/abc/uploads/3/source.mp4');
    await storage.deletePrefix('users/ab/uploads/');
    expect(await storage.stat('users/ab/uploads/1/source.mp4')).toBeNull();
    expect(await storage.stat('users/ab/uploads/1/thumbnail.jpg')).toBeNull();
    expect(await storage.stat('users/ab/tasks/2/out.mp4')).not.toBeNull();
    await storage.deletePrefix('users/ab/');
    expect(await storage.stat('users/ab/tasks/2/out.mp4')).toBeNull();
    expect(await storage.stat('users/abc/uploads/3/source.mp4')).not.toBeNull();
    await expect(storage.deletePrefix('users/ab')).rejects.toThrow(/must end with/);
  });

  it('refuses keys that could escape the root or smuggle odd characters', async (ctx) => {
    if (driver.skip) return ctx.skip(driver.skip);
    const bad = [
      '../outside.txt',
      'users/../../outside.txt',
      '/etc/passwd',
      'users\\u1\\a.txt',
      'users/u1/a\0.txt',
      'users//a.txt',
      'users/./a.txt',
      'users/u1/ünï.mp4',
      'users/u1/a b.mp4',
      'users/u1/$(id).mp4',
      '',
    ];
    for (const key of bad) {
      await expect(storage.putStream(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(
        /storage key/i,
      );
      await expect(storage.stat(key), key).rejects.toThrow(/storage key/i);
      await expect(storage.delete(key), key).rejects.toThrow(/storage key/i);
    }
    if (storage instanceof LocalStorage) {
      expect(existsSync(path.join(path.dirname(storage.rootDir), 'outside.txt'))).toBe(false);
    }
  });
});

describe.skipIf(!hasMoto)('S3 signed links', () => {
  let moto: Awaited<ReturnType<typeof startMoto>>;
  let storage: S3Storage;
  beforeAll(async () => {
    moto = await startMoto();
    storage = new S3Storage({
      bucket: 'moments-links',
      region: 'us-east-1',
      endpoint: moto.endpoint,
      accessKeyId: 'test',
      secretAccessKey: 'test',
    });
    await storage.client.send(new CreateBucketCommand({ Bucket: storage.bucket }));
  });
  afterAll(async () => {
    await moto?.stop();
  });

  it('are presigned bucket URLs that fetch the file, as a download when named', async () => {
    await storage.putStream('users/u1/exports/e1/clip.mp4', Readable.from([Buffer.from('mp4!')]));
    const fileUrls = new FileUrls(storage, Buffer.from('x'.repeat(32)));
    const url = await fileUrls.signFileUrl('users/u1/exports/e1/clip.mp4', {
      expiresInSec: 600,
      downloadName: 'My clip.mp4',
    });
    expect(url.startsWith(`${moto.endpoint}/moments-links/users/u1/exports/e1/clip.mp4?`)).toBe(
      true,
    );
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('mp4!');
    expect(response.headers.get('content-disposition')).toContain('attachment');
    expect(response.headers.get('content-type')).toBe('video/mp4');
  });
});

describe.skipIf(!hasMoto)('uploads and exports on S3 storage', () => {
  let moto: Awaited<ReturnType<typeof startMoto>>;
  let t: TestApp;
  beforeAll(async () => {
    moto = await startMoto();
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    t = await startTestApp(
      await pglite.open(),
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: moto.endpoint,
        S3_BUCKET: 'moments-uploads',
        S3_ACCESS_KEY_ID: 'test',
        S3_SECRET_ACCESS_KEY: 'test',
      },
      { workers: true },
    );
    await (t.services.storage as S3Storage).client.send(
      new CreateBucketCommand({ Bucket: 'moments-uploads' }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await moto?.stop();
  });

  it('stores an uploaded video in the bucket and links its thumbnail presigned', async () => {
    const video = await makeTestVideo(path.join(tmpRoot, 'for-s3.webm'), { durationSec: 1 });
    const user = await signUp(t.app, 's3user');
    const boundary = 'moments-s3-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="garden.webm"\r\n\r\n`,
      ),
      await fs.readFile(video),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload,
      headers: { ...user.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const meta = response.json().data;
    expect(meta.title).toBe('garden');
    const uploadId = meta.url.slice('upload://'.length);
    const key = `users/${user.userId}/uploads/${uploadId}/source.webm`;
    expect(await t.services.storage.stat(key)).toEqual({ size: (await fs.stat(video)).size });
    expect(
      meta.thumbnail.startsWith(`${moto.endpoint}/moments-uploads/users/${user.userId}/`),
    ).toBe(true);
    const thumbnail = await fetch(meta.thumbnail);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    expect(
      Buffer.from(await thumbnail.arrayBuffer())
        .subarray(0, 2)
        .toString('hex'),
    ).toBe('ffd8');
    // Nothing of the received file stays on the API machine's disk.
    expect(await fs.readdir(t.services.workRoot)).toEqual([]);
  });
  it('renders an export from a source in the bucket into the bucket, keeping no local copy', async () => {
    const video = await makeTestVideo(path.join(tmpRoot, 'for-s3-export.mp4'), {
      durationSec: 4,
      width: 640,
      height: 360,
    });
    const user = await signUp(t.app, 's3exporter');
    const words = ['the', 'bucket', 'holds', 'every', 'clip'].map((text, i) => ({
      text,
      startMs: 300 + i * 600,
      endMs: 700 + i * 600,
    }));
    const { taskId, momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Bucket talk',
      durationMs: 4000,
      words,
      moment: { startMs: 200, endMs: 3400, title: 'Bucket talk' },
    });
    const mediaKey = `users/${user.userId}/tasks/${taskId}/source.mp4`;
    expect(await t.services.storage.stat(mediaKey)).not.toBeNull();

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: { aspect: '9:16', quality: '720p', template: 'karaoke', layout: 'blur_fit' },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const job = await waitForJob(t.app, user.headers, started.json().data.job_id);
    expect(job.error_reason).toBeNull();
    expect(job.status).toBe('DONE');
    // The file is a presigned bucket link that plays as a 720x1280 video.
    expect(job.file_url!.startsWith(`${moto.endpoint}/moments-uploads/`)).toBe(true);
    const response = await fetch(job.file_url!);
    expect(response.status).toBe(200);
    const exported = path.join(tmpRoot, 'exported-from-s3.mp4');
    await fs.writeFile(exported, Buffer.from(await response.arrayBuffer()));
    const probe = await probeMedia(exported);
    expect(probe).toMatchObject({ width: 720, height: 1280 });
    // The source was copied into the run's folder, which went with the run.
    expect(await fs.readdir(t.services.workRoot)).toEqual([]);
  }, 180_000);

  it('deletes an upload, a task and an account leaving no object in the bucket and no working link', async () => {
    // A bucket answers a presigned link to a missing object 404, or 403 where listing is denied.
    const GONE = [403, 404];
    const video = await makeTestVideo(path.join(tmpRoot, 'for-s3.webm'), { durationSec: 1 });
    const user = await signUp(t.app, 's3leaver');
    const bucket = (t.services.storage as S3Storage).client;
    const objects = async () =>
      (
        await bucket.send(
          new ListObjectsV2Command({ Bucket: 'moments-uploads', Prefix: `users/${user.userId}/` }),
        )
      ).Contents ?? [];
    const upload = async () => {
      const body = multipartFile('garden.webm', await fs.readFile(video));
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        payload: body.payload,
        headers: { ...user.headers, ...body.headers },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as { id: string; thumbnail: string };
    };

    const first = await upload();
    expect((await fetch(first.thumbnail)).status).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/${first.id}`,
      headers: user.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await objects()).toEqual([]);
    expect(GONE).toContain((await fetch(first.thumbnail)).status);

    const { taskId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Bucket talk',
      durationMs: 1000,
      words: [{ text: 'garden', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 1000, title: 'Garden' },
    });
    const sourceKey = `users/${user.userId}/tasks/${taskId}/source.mp4`;
    const sourceLink = await t.services.fileUrls.signFileUrl(sourceKey, { expiresInSec: 600 });
    expect((await fetch(sourceLink)).status).toBe(200);
    const task = await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/task?id=${taskId}`,
      headers: user.headers,
    });
    expect(task.statusCode, task.body).toBe(200);
    expect(await objects()).toEqual([]);
    expect(GONE).toContain((await fetch(sourceLink)).status);

    const second = await upload();
    expect(await objects()).toHaveLength(2);
    const account = await t.app.inject({
      method: 'POST',
      url: '/api/user/delete_account',
      headers: user.headers,
      payload: { password: 'a sturdy passphrase' },
    });
    expect(account.statusCode, account.body).toBe(200);
    expect(await objects()).toEqual([]);
    expect(GONE).toContain((await fetch(second.thumbnail)).status);
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: user.headers,
    });
    expect(info.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'a sturdy passphrase' },
    });
    expect(login.statusCode).toBe(401);
  }, 120_000);
});

// ---------- signed /files links on the local driver ----------

describe('local signed file links', () => {
  let app: App;
  let storage: LocalStorage;
  let fileUrls: FileUrls;
  let clock = Date.now();
  const video = randomBytes(100_000);

  beforeAll(async () => {
    storage = new LocalStorage(path.join(tmpRoot, 'route-files'));
    fileUrls = new FileUrls(storage, await loadAppSecret(path.join(tmpRoot, 'data')), () => clock);
    app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app, installApiContract(app, { strict: true }));
    registerFileRoutes(app, { storage, fileUrls });
    await app.ready();
    await storage.putStream('users/u1/uploads/x/source.mp4', Readable.from([video]));
    await storage.putStream(
      'users/u1/uploads/x/thumbnail.jpg',
      Readable.from([Buffer.from('jpg')]),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps a generated secret at DATA_DIR/secret readable by its owner only, and reuses it', async () => {
    const dataDir = path.join(tmpRoot, 'data');
    const info = await fs.stat(path.join(dataDir, 'secret'));
    expect(info.mode & 0o777).toBe(0o600);
    const again = await loadAppSecret(dataDir);
    const first = await loadAppSecret(dataDir);
    expect(again.equals(first)).toBe(true);
    expect((await loadAppSecret(dataDir, 'y'.repeat(40))).equals(first)).toBe(false);
    await expect(loadAppSecret(dataDir, 'short')).rejects.toThrow(/at least 32/);
  });

  it('serves a signed file with its content type and byte ranges for seeking', async () => {
    const url = await fileUrls.signFileUrl('users/u1/uploads/x/source.mp4', { expiresInSec: 60 });
    expect(url).toMatch(/^\/files\/users\/u1\/uploads\/x\/source\.mp4\?exp=\d+&sig=[\w-]+$/);
    const whole = await app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(video)).toBe(true);

    const part = await app.inject({ method: 'GET', url, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${video.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(video.subarray(1000, 2000))).toBe(true);

    const last = await app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(last.rawPayload.equals(video.subarray(-10))).toBe(true);
    const open = await app.inject({ method: 'GET', url, headers: { range: 'bytes=99990-' } });
    expect(open.headers['content-range']).toBe(`bytes 99990-99999/${video.length}`);

    const beyond = await app.inject({ method: 'GET', url, headers: { range: 'bytes=200000-' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${video.length}`);

    const thumb = await fileUrls.signFileUrl('users/u1/uploads/x/thumbnail.jpg', {
      expiresInSec: 60,
    });
    expect((await app.inject({ method: 'GET', url: thumb })).headers['content-type']).toBe(
      'image/jpeg',
    );
  });

  it('sends a named download as an attachment with a safe header', async () => {
    const url = await fileUrls.signFileUrl('users/u1/uploads/x/source.mp4', {
      expiresInSec: 60,
      downloadName: 'Ünïcode "clip"; rm -rf.mp4',
    });
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const disposition = response.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
    expect(disposition).toContain(
      `filename*=UTF-8''${encodeURIComponent('Ünïcode "clip"; rm -rf.mp4')}`,
    );
  });

  it('answers 403 FORBIDDEN for a tampered, re-targeted, renamed, unsigned or expired link', async () => {
    const url = await fileUrls.signFileUrl('users/u1/uploads/x/thumbnail.jpg', {
      expiresInSec: 60,
      downloadName: 'a.jpg',
    });
    const parsed = new URL(url, 'http://x');
    const sig = parsed.searchParams.get('sig')!;
    const variants = [
      url.replace(`sig=${sig}`, `sig=${tamperedSignature(sig)}`),
      url.replace('thumbnail.jpg', 'source.mp4'),
      url.replace('dn=a.jpg', 'dn=b.jpg'),
      url.replace(/exp=\d+/, `exp=${Math.floor(clock / 1000) + 999_999}`),
      '/files/users/u1/uploads/x/thumbnail.jpg',
    ];
    for (const variant of variants) {
      const response = await app.inject({ method: 'GET', url: variant });
      expect(response.statusCode, variant).toBe(403);
      expect(response.json(), variant).toMatchObject({ code: 'FORBIDDEN', data: null });
    }
    // Clients resolve `..` before sending; a raw one that does not still gets no file.
    const query = Object.fromEntries(parsed.searchParams);
    expect(fileUrls.verify('users/u1/uploads/x/thumbnail.jpg', query)).toBe(true);
    expect(fileUrls.verify('users/u1/../u1/uploads/x/thumbnail.jpg', query)).toBe(false);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    clock += 61_000;
    const expired = await app.inject({ method: 'GET', url });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('FORBIDDEN');
  });

  it('answers 404 for a validly signed key with no file', async () => {
    const url = await fileUrls.signFileUrl('users/u1/uploads/x/missing.mp4', { expiresInSec: 60 });
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('parses single byte ranges and ignores what it cannot serve', () => {
    expect(parseByteRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseByteRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseByteRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseByteRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=6-5', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseByteRange('items=0-1', 10)).toBeNull();
    expect(parseByteRange(undefined, 10)).toBeNull();
  });
});
