import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { VideoMeta } from '@moments/contract';
import { probeMedia } from '@moments/media/probe';
import { makeTestVideo } from '@moments/media/testing';
import { safeDisplayName, titleFromFileName } from '../src/modules/uploads/index.js';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { multipartFile as multipart, signUp, startTestApp, type TestApp } from './support/app.js';

// Media made at test time: a real 2 s mp4, and damaged or fake variants of it.
let mediaDir: string;
let realMp4: Buffer;
beforeAll(async () => {
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-upload-media-'));
  realMp4 = await fs.readFile(
    await makeTestVideo(path.join(mediaDir, 'clip.mp4'), {
      durationSec: 2,
      width: 320,
      height: 240,
    }),
  );
});
afterAll(async () => {
  await fs.rm(mediaDir, { recursive: true, force: true });
});

async function upload(
  t: TestApp,
  headers: Record<string, string>,
  fileName: string,
  content: Buffer,
) {
  const body = multipart(fileName, content);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

const leftovers = async (t: TestApp) =>
  (await fs.readdir(t.services.workRoot).catch(() => [] as string[])).filter(
    (name) => !name.startsWith('moments-'),
  );

describe.each(DATABASE_TARGETS)('uploads on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes a real mp4 and answers its video meta with a working signed thumbnail', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'uploader');
    const before = Math.floor(Date.now() / 1000);
    const response = await upload(t, user.headers, 'Holiday clip.mp4', realMp4);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.code).toBe(0);
    const meta = VideoMeta.parse(body.data);
    expect(meta).toMatchObject({
      title: 'Holiday clip',
      video_platform: 'upload',
      channel_title: null,
      view_count: null,
    });
    expect(meta.url).toMatch(/^upload:\/\/[0-9a-f-]{36}$/);
    expect(meta.duration).toBeCloseTo(2, 0);
    expect(meta.published_at).toBeGreaterThanOrEqual(before);

    const thumbnail = await t.app.inject({ method: 'GET', url: meta.thumbnail! });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    expect(thumbnail.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');

    // The source is stored under the user's folder, intact, and nothing is left in tmp.
    const uploadId = meta.url.slice('upload://'.length);
    const sourceKey = `users/${user.userId}/uploads/${uploadId}/source.mp4`;
    expect(await t.services.storage.stat(sourceKey)).toEqual({ size: realMp4.length });
    const probed = await t.services.storage.withLocalFile(sourceKey, (file) => probeMedia(file));
    expect(probed.width).toBe(320);
    expect(await leftovers(t)).toEqual([]);

    // The same meta is there later for its owner, and for nobody else.
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/upload/${uploadId}`,
      headers: user.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ url: meta.url, title: 'Holiday clip' });
    const stranger = await signUp(t.app, 'stranger');
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/upload/${uploadId}`,
      headers: stranger.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('NOT_FOUND');
  });

  it('keeps file names with path tricks and shell characters out of paths and titles', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'tricky');
    const names: [string, string][] = [
      ['../../etc/passwd.mp4', 'passwd'],
      ['..\\..\\windows\\evil.mp4', 'evil'],
      ['a;b|c$(rm -rf ~)`id`.mp4', 'a b c rm -rf ~ id'],
      ['Été à Zürich — 日本語 🎬.mp4', 'Été à Zürich — 日本語 🎬'],
      ['\u202egnp.mp4', 'gnp'],
    ];
    for (const [name, title] of names) {
      const response = await upload(t, user.headers, name, realMp4);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      const meta = response.json().data;
      expect(meta.title, name).toBe(title);
      const uploadId = meta.url.slice('upload://'.length);
      // Stored by id, whatever the name said.
      expect(
        await t.services.storage.stat(`users/${user.userId}/uploads/${uploadId}/source.mp4`),
      ).not.toBeNull();
    }
    await expect(fs.access(path.join(t.dataDir, 'etc'))).rejects.toThrow();
    await expect(
      fs.access(path.join(path.dirname(t.dataDir), 'etc', 'passwd.mp4')),
    ).rejects.toThrow();
  });

  it('resumes a tus upload after a pause and ends with the video meta', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const owner = await signUp(t.app, 'resumer');
    const stranger = await signUp(t.app, 'peeker');
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base =
      typeof address === 'string'
        ? address
        : `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const chunkSize = Math.ceil(realMp4.length / 2);

    let pausedAtChunk: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => (pausedAtChunk = resolve));
    let firstChunkDone = false;
    let successBody = '';
    const finished = new Promise<void>((resolve, reject) => {
      const resumable = new tus.Upload(realMp4, {
        endpoint: `${base}/api/upload/tus`,
        chunkSize,
        retryDelays: [],
        headers: owner.headers,
        metadata: { filename: 'Résumé talk.mp4', filetype: 'video/mp4' },
        onChunkComplete: () => {
          if (firstChunkDone) return;
          firstChunkDone = true;
          void resumable.abort().then(() => pausedAtChunk());
        },
        onSuccess: (payload) => {
          successBody = payload.lastResponse.getBody();
          resolve();
        },
        onError: reject,
      });
      resumable.start();
      void paused
        .then(async () => {
          const uploadUrl = resumable.url!;
          const tusId = uploadUrl.split('/').pop()!;
          // Paused: the server holds exactly the first chunk, and only its owner may see it.
          const head = await fetch(uploadUrl, {
            method: 'HEAD',
            headers: { ...owner.headers, 'tus-resumable': '1.0.0' },
          });
          expect(head.status).toBe(200);
          expect(head.headers.get('upload-offset')).toBe(String(chunkSize));
          for (const method of ['HEAD', 'PATCH', 'DELETE']) {
            const peek = await t.app.inject({
              method: method as 'HEAD',
              url: `/api/upload/tus/${tusId}`,
              headers: {
                ...stranger.headers,
                'tus-resumable': '1.0.0',
                'upload-offset': String(chunkSize),
                'content-type': 'application/offset+octet-stream',
              },
              payload: method === 'PATCH' ? Buffer.from('evil') : undefined,
            });
            expect(peek.statusCode, method).toBe(404);
          }
          const anonymous = await fetch(uploadUrl, {
            method: 'HEAD',
            headers: { 'tus-resumable': '1.0.0' },
          });
          expect(anonymous.status).toBe(401);
          resumable.start();
        })
        .catch(reject);
    });
    await finished;

    const envelope = JSON.parse(successBody);
    expect(envelope.code).toBe(0);
    const meta = VideoMeta.parse(envelope.data);
    expect(meta).toMatchObject({ title: 'Résumé talk', video_platform: 'upload' });
    expect(meta.duration).toBeCloseTo(2, 0);
    const uploadId = meta.url.slice('upload://'.length);
    expect(
      await t.services.storage.stat(`users/${owner.userId}/uploads/${uploadId}/source.mp4`),
    ).toEqual({ size: realMp4.length });
    // The staged chunks are gone once the file is stored.
    expect(await fs.readdir(path.join(t.dataDir, 'tus'))).toEqual([]);

    const byOwner = await fetch(`${base}/api/upload/${uploadId}`, { headers: owner.headers });
    expect(((await byOwner.json()) as { data: VideoMeta }).data.url).toBe(meta.url);
    const byStranger = await fetch(`${base}/api/upload/${uploadId}`, { headers: stranger.headers });
    expect(byStranger.status).toBe(404);
  });
});

describe('upload refusals', () => {
  const maxBytes = 1024 * 1024;
  let t: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    t = await startTestApp(await pglite.open(), { UPLOAD_MAX_BYTES: String(maxBytes) });
    headers = (await signUp(t.app, 'refused')).headers;
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectRefusal = async (name: string, content: Buffer, status: number, codes: string[]) => {
    const response = await upload(t, headers, name, content);
    expect(response.statusCode, response.body).toBe(status);
    expect(codes).toContain(response.json().code);
    expect(response.json().data).toBeNull();
    expect(await leftovers(t)).toEqual([]);
    return response.json();
  };

  it('refuses a .mp4 that is really text', async () => {
    const body = await expectRefusal(
      'notes.mp4',
      Buffer.from('just some notes\n'.repeat(100)),
      422,
      ['NOT_A_VIDEO', 'CORRUPT_MEDIA'],
    );
    expect(body.message).toMatch(/video/i);
  });

  it('refuses a real video whose picture is larger than 8K as too large, not as no video', async () => {
    const square = await makeTestVideo(path.join(mediaDir, 'square-8000.mp4'), {
      durationSec: 0.2,
      fps: 5,
      width: 8000,
      height: 8000,
      silent: true,
      flat: true,
    });
    const body = await expectRefusal('square.mp4', await fs.readFile(square), 422, [
      'VIDEO_FRAME_TOO_LARGE',
    ]);
    expect(body.message).toMatch(/larger than 8K/);
  });

  it('refuses an empty file', async () => {
    await expectRefusal('empty.mp4', Buffer.alloc(0), 422, ['EMPTY_FILE']);
  });

  it('refuses an mp4 cut in half', async () => {
    await expectRefusal('half.mp4', realMp4.subarray(0, realMp4.length / 2), 422, [
      'CORRUPT_MEDIA',
    ]);
  });

  it('refuses other extensions, even for real video', async () => {
    const body = await expectRefusal('clip.avi', realMp4, 422, ['UNSUPPORTED_EXTENSION']);
    expect(body.message).toMatch(/mp4, mov, webm/);
  });

  it('refuses a file over the size limit with 413 and keeps nothing of it', async () => {
    const big = Buffer.concat([realMp4, Buffer.alloc(maxBytes + 1 - realMp4.length, 7)]);
    await expectRefusal('big.mp4', big, 413, ['PAYLOAD_TOO_LARGE']);
    // Even when no declared length gives it away: a streamed body is counted as it arrives.
    const body = multipart('big.mp4', big);
    const chunked = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: Readable.from([body.payload.subarray(0, 4096), body.payload.subarray(4096)]),
      headers: { ...headers, ...body.headers },
    });
    expect(chunked.statusCode).toBe(413);
    expect(await leftovers(t)).toEqual([]);
  });

  it('refuses a resumable upload longer than the limit before any byte arrives', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(maxBytes + 1),
        'upload-metadata': `filename ${Buffer.from('big.mp4').toString('base64')}`,
      },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    const avi = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': `filename ${Buffer.from('clip.avi').toString('base64')}`,
      },
    });
    expect(avi.statusCode).toBe(422);
    expect(avi.json().code).toBe('UNSUPPORTED_EXTENSION');
  });

  it('runs a finished resumable upload through the same checks, keeping nothing of a bad one', async () => {
    const text = Buffer.from('definitely not a video\n'.repeat(50));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(text.length),
        'upload-metadata': `filename ${Buffer.from('notes.mp4').toString('base64')}`,
      },
    });
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/upload\/tus\/[0-9a-f-]{36}$/);
    const finished = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: text,
    });
    expect(finished.statusCode).toBe(422);
    expect(['NOT_A_VIDEO', 'CORRUPT_MEDIA']).toContain(finished.json().code);
    expect(await fs.readdir(path.join(t.dataDir, 'tus'))).toEqual([]);
    const gone = await t.app.inject({
      method: 'HEAD',
      url: location,
      headers: { ...headers, 'tus-resumable': '1.0.0' },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('asks for a login first', async () => {
    const body = multipart('clip.mp4', realMp4);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: body.headers,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
    const tusCreate = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(tusCreate.statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/upload/00000000-0000-4000-8000-000000000000',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('wants the video in a field named file', async () => {
    const body = multipart('clip.mp4', realMp4, 'video');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/field named "file"/);
  });
});

describe('display names of uploaded files', () => {
  it('shortens long names but keeps the extension, and never answers an empty name', () => {
    const long = safeDisplayName(`${'é'.repeat(300)}.webm`);
    expect([...long].length).toBeLessThanOrEqual(200);
    expect(long.endsWith('.webm')).toBe(true);
    expect(safeDisplayName('../../')).toBe('video');
    expect(safeDisplayName('C:\\Users\\me\\clip.MOV')).toBe('clip.MOV');
    expect(titleFromFileName('clip.MOV')).toBe('clip');
  });
});
