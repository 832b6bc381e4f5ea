/**
 * Attacker-chosen video facts: a task keeps the link and the user's title
 * only; thumbnail, counts and dates come from what the server fetched itself, and odd values are
 * refused with a clear 400.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

describe('task video metadata is the server own', () => {
  let t: TestApp;
  let dir: string;
  let served: ServedFiles;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-meta-'));
    await makeTestVideo(path.join(dir, 'clip.mp4'), { durationSec: 1 });
    served = await serveFiles(dir);
    t = await startTestApp(await openPglite(), { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await served?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const start = (headers: Record<string, string>, video: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct&source_lang=auto',
      headers,
      payload: { url: `${served.url}/clip.mp4`, ...video },
    });

  it('a client-chosen thumbnail and counts never reach the task', async () => {
    const user = await signUp(t.app, 'tracker');
    const response = await start(user.headers, {
      title: 'My talk',
      thumbnail: 'https://evil.example/track.gif',
      channel_title: 'Totally Official',
      view_count: 123_456_789,
      published_at: 1_700_000_000,
      // The page-reported length only pre-checks the balance (a free user can afford 2 minutes);
      // the task's own length comes from the probe of what was downloaded.
      duration: 120,
    });
    expect(response.statusCode).toBe(200);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task?id=${response.json().data.id}`,
      headers: user.headers,
    });
    for (const video of [response.json().data.video, listed.json().data.video]) {
      expect(video).toMatchObject({
        title: 'My talk',
        thumbnail: null,
        channel_title: null,
        view_count: null,
        published_at: null,
        duration: null,
      });
    }
  });

  it('odd values are refused with a 400, not stored', async () => {
    const user = await signUp(t.app, 'odd');
    for (const odd of [{ published_at: -1e308 }, { view_count: 1e15 }, { published_at: 1.5e12 }]) {
      const response = await start(user.headers, odd);
      expect(response.statusCode, JSON.stringify(odd)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });
});
