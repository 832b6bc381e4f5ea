import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../src/probe/index.js';
import {
  makeTestVideo,
  serveFiles,
  sharedMediaDir,
  synthesizeSpeech,
  type ServedFiles,
} from './index.js';

let work: string;
let served: ServedFiles;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'moments-testing-'));
  await writeFile(join(work, 'hello.txt'), 'hello world');
  served = await serveFiles(work);
});
afterAll(async () => {
  await served.close();
  await rm(work, { recursive: true, force: true });
});

describe('makeTestVideo', () => {
  it('makes a video of the asked size and length with a tone', async () => {
    const out = await makeTestVideo(join(work, 'pattern.mov'), {
      durationSec: 1,
      width: 192,
      height: 108,
    });
    const info = await probeMedia(out);
    expect(info).toMatchObject({ width: 192, height: 108, hasAudio: true, hasVideo: true });
    expect(info.durationMs).toBeGreaterThan(900);
    expect(info.durationMs).toBeLessThan(1200);
  });
});

describe('synthesizeSpeech', () => {
  it.each(['espeak', 'festival'] as const)('speaks text into a wav with %s', async (engine) => {
    const wav = await synthesizeSpeech(
      '-v this text starts like an option',
      join(work, `${engine}.wav`),
      { engine },
    );
    const info = await probeMedia(wav);
    expect(info.hasAudio).toBe(true);
    expect(info.durationMs).toBeGreaterThan(1000);
  });
});

describe('sharedMediaDir', () => {
  it('points at the shared speech fixtures when they exist', () => {
    const folder = sharedMediaDir();
    if (folder === undefined)
      console.log('shared media (../shared/media) not found beside the repo');
    else expect(folder).toMatch(/shared[\\/]media$/);
  });
});

describe('serveFiles', () => {
  it('serves files with their content type and byte ranges', async () => {
    const whole = await fetch(`${served.url}/hello.txt`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toContain('text/plain');
    expect(await whole.text()).toBe('hello world');
    const part = await fetch(`${served.url}/hello.txt`, { headers: { range: 'bytes=6-' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('world');
  });

  it('answers 404 for missing files and for paths outside the folder', async () => {
    expect((await fetch(`${served.url}/missing.mp4`)).status).toBe(404);
    expect((await fetch(`${served.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
  });

  it('has an HTML page, redirects and chosen statuses', async () => {
    const page = await fetch(`${served.url}/__page`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const redirect = await fetch(`${served.url}/__redirect?to=/hello.txt`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/hello.txt');
    expect((await fetch(`${served.url}/__status/503`)).status).toBe(503);
    expect(served.requests).toContain('/__page');
  });
});
