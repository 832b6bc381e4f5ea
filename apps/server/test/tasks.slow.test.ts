import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Task, Transcript } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { hasYtDlp } from '@moments/media/ingest';
import {
  makeTestVideo,
  serveFiles,
  sharedMediaDir,
  type ServedFiles,
} from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { waitFor } from './support/remote.js';
import { multipartFile, signUp, startTestApp, waitForTask, type TestApp } from './support/app.js';
import { runFfmpeg } from '@moments/media/ffmpeg';

const JFK_TEXT =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const media = sharedMediaDir();
const asr = fasterWhisperAvailability();
const missing = [
  !media && 'the shared test media (../shared/media)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length)
  console.warn(`Skipping link-to-transcript task tests: missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0).each(DATABASE_TARGETS)(
  'tasks from a link on $name',
  (target) => {
    let skip: string | null = null;
    let t: TestApp;
    let served: ServedFiles;
    let dir: string;

    beforeAll(async () => {
      skip = await target.unavailable();
      if (skip) return;
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-served-'));
      await makeTestVideo(path.join(dir, 'jfk.mp4'), { audio: path.join(media!, 'jfk.flac') });
      await fs.writeFile(
        path.join(dir, 'fake.mp4'),
        'this is plain text, not a video\n'.repeat(50),
      );
      served = await serveFiles(dir);
      t = await startTestApp(
        await target.open(),
        { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' },
        { workers: true },
      );
    });
    afterAll(async () => {
      await t?.close();
      await served?.close();
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    });

    const start = (headers: Record<string, string>, url: string, query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/highlight_moment/task/start?url_source=direct&source_lang=auto&caption_display=source${query}`,
        headers,
        payload: { url },
      });

    it('downloads, transcribes with word timings, and ends DONE', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'linker');
      const started = await start(user.headers, `${served.url}/jfk.mp4`, '&clip_length=under_30');
      expect(started.statusCode).toBe(200);
      const task = Task.parse(started.json().data);
      expect(task).toMatchObject({ status: 'START', kind: 'viral', done: false, completed: false });
      expect(task.clip_length).toBe('under_30');

      const finished = Task.parse(await waitForTask(t.app, user.headers, task.id));
      expect(finished.error_reason).toBeNull();
      expect(finished).toMatchObject({
        status: 'DONE',
        done: true,
        completed: true,
        progress: 100,
      });
      expect(finished.detected_lang).toBe('en');
      expect(finished.duration_ms).toBeGreaterThan(10_000);
      expect(finished.cost_credits).toBeGreaterThan(0);

      // Indexed for the home search as it finished: its passage, found by its words.
      const searched = await t.app.inject({
        method: 'POST',
        url: '/api/p/v1/searchVideos',
        headers: user.headers,
        payload: { query: 'what can I do for my country' },
      });
      // One row for the video, led by its best match (the video itself or its moment).
      const hits = searched.json().data.items as { kind: string; task_id: string }[];
      expect(hits.filter((hit) => hit.task_id === task.id)).toHaveLength(1);
      // Its embeddings follow DONE (the task's follow-up job), for the search by meaning.
      const embedded = await waitFor('the passages embedded by the follow-up', 60_000, async () => {
        const counted = await t.services.database.rawSql(
          'SELECT count(*)::int AS n FROM search_passages WHERE task_id = $1 AND search_vector IS NOT NULL',
          [task.id],
        );
        const n = (counted.rows[0] as { n: number }).n;
        return n > 0 ? n : undefined;
      });
      expect(embedded).toBeGreaterThan(0);

      const transcript = Transcript.parse(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/highlight_moment/task/transcript?id=${task.id}`,
            headers: user.headers,
          })
        ).json().data,
      );
      const text = transcript.segments.map((segment) => segment.text).join(' ');
      expect(wordErrorRate(JFK_TEXT, text)).toBeLessThanOrEqual(0.1);
      const words = transcript.segments.flatMap((segment) => segment.words);
      expect(words.length).toBeGreaterThan(15);
      for (const word of words) {
        expect(word.start).toBeLessThan(word.end);
        expect(word.start).toBeGreaterThanOrEqual(0);
        expect(word.end).toBeLessThanOrEqual(transcript.duration_ms);
      }

      // The credits were charged once.
      const info = (
        await t.app.inject({ method: 'GET', url: '/api/user/info', headers: user.headers })
      ).json().data;
      expect(info.entitlements.find((e: { feature: string }) => e.feature === 'CREDIT').usage).toBe(
        finished.cost_credits,
      );

      // Listed, newest first, and invisible to another user.
      const list = (
        await t.app.inject({
          method: 'GET',
          url: '/api/highlight_moment/task/list',
          headers: user.headers,
        })
      ).json().data;
      expect(list.map((item: Task) => item.id)).toContain(task.id);
      const other = await signUp(t.app, 'other');
      for (const [method, url] of [
        ['GET', `/api/highlight_moment/task?id=${task.id}`],
        ['GET', `/api/highlight_moment/task/transcript?id=${task.id}`],
        ['POST', `/api/highlight_moment/task/retry?id=${task.id}`],
        ['DELETE', `/api/highlight_moment/task?id=${task.id}`],
        ['GET', `/api/highlight_moment/task/query_history?root_task_id=${task.id}`],
      ] as const) {
        const response = await t.app.inject({ method, url, headers: other.headers });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
      const otherList = (
        await t.app.inject({
          method: 'GET',
          url: '/api/highlight_moment/task/list',
          headers: other.headers,
        })
      ).json().data;
      expect(otherList).toEqual([]);

      // A follow-up query chains to the root task and reuses its transcript.
      const followUp = await start(
        user.headers,
        `${served.url}/jfk.mp4`,
        `&query=${encodeURIComponent('what should citizens do')}&root_task_id=${task.id}`,
      );
      const queryTask = Task.parse(followUp.json().data);
      expect(queryTask).toMatchObject({ kind: 'search', root_task_id: task.id });
      await waitForTask(t.app, user.headers, queryTask.id);
      const history = (
        await t.app.inject({
          method: 'GET',
          url: `/api/highlight_moment/task/query_history?root_task_id=${task.id}`,
          headers: user.headers,
        })
      ).json().data;
      expect(history.map((item: Task) => item.id)).toEqual([task.id, queryTask.id]);

      // Deleting removes it for good.
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/highlight_moment/task?id=${queryTask.id}`,
        headers: user.headers,
      });
      expect(deleted.statusCode).toBe(200);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/highlight_moment/task?id=${queryTask.id}`,
            headers: user.headers,
          })
        ).statusCode,
      ).toBe(404);
    });

    it('transcribes an uploaded video and detects German on its own', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'uploader');
      // The German half of the bilingual recording (speech starts at about 31 s).
      const german = path.join(dir, 'german.wav');
      await runFfmpeg([
        '-ss',
        '29.5',
        '-t',
        '15',
        '-i',
        path.join(media!, 'multilingual-en-de.mp3'),
        german,
      ]);
      const video = path.join(dir, 'german.mp4');
      await makeTestVideo(video, { audio: german });
      const body = multipartFile('Vortrag über Lizenzen.mp4', await fs.readFile(video));
      const uploaded = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        payload: body.payload,
        headers: { ...user.headers, ...body.headers },
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const meta = uploaded.json().data;
      expect(meta).toMatchObject({ video_platform: 'upload', title: 'Vortrag über Lizenzen' });
      expect(meta.duration).toBeCloseTo(15, 0);

      const started = await t.app.inject({
        method: 'POST',
        url: '/api/highlight_moment/task/start?url_source=upload&source_lang=auto',
        headers: user.headers,
        payload: meta,
      });
      expect(started.statusCode, started.body).toBe(200);
      const finished = Task.parse(await waitForTask(t.app, user.headers, started.json().data.id));
      expect(finished.error_reason).toBeNull();
      expect(finished.status).toBe('DONE');
      expect(finished.detected_lang).toBe('de');
      expect(finished.video.title).toBe('Vortrag über Lizenzen');
    });

    it('ends ERROR with a readable reason for a fake video, refunds, and can be retried', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'faker');
      const started = await start(user.headers, `${served.url}/fake.mp4`);
      expect(started.statusCode).toBe(200);
      const failed = await waitForTask(t.app, user.headers, started.json().data.id);
      expect(failed.status).toBe('ERROR');
      expect(failed.error).toBe(true);
      expect(failed.error_reason).toMatch(/video|media|read/i);
      const info = (
        await t.app.inject({ method: 'GET', url: '/api/user/info', headers: user.headers })
      ).json().data;
      expect(info.entitlements.find((e: { feature: string }) => e.feature === 'CREDIT').usage).toBe(
        0,
      );

      const retried = await t.app.inject({
        method: 'POST',
        url: `/api/highlight_moment/task/retry?id=${failed.id}`,
        headers: user.headers,
      });
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data.status).toBe('START');
      const again = await waitForTask(t.app, user.headers, failed.id);
      expect(again.status).toBe('ERROR');
    });

    it('refuses bad links with clear codes before queuing anything', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'badlinks');
      const cases: Array<[string, string]> = [
        [`${served.url}/missing.mp4`, 'LINK_NOT_FOUND'],
        [`${served.url}/__page`, 'LINK_NOT_MEDIA'],
        ['ftp://example.com/video.mp4', 'INVALID_URL'],
        ['not a link at all', 'INVALID_URL'],
      ];
      for (const [url, code] of cases) {
        const response = await start(user.headers, url);
        expect(response.statusCode, url).toBe(422);
        expect(response.json().code, url).toBe(code);
      }
      const list = (
        await t.app.inject({
          method: 'GET',
          url: '/api/highlight_moment/task/list',
          headers: user.headers,
        })
      ).json().data;
      expect(list).toEqual([]);
    });
  },
);

describe.each(DATABASE_TARGETS)('task guards on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // No allow-list: private addresses are refused, as for any real deployment.
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses private-network links and needs a login', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'ssrf');
    for (const url of [
      'http://127.0.0.1:5432/x.mp4',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/a.mp4',
      'http://10.0.0.8/v.mp4',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/highlight_moment/task/start?url_source=direct',
        headers: user.headers,
        payload: { url },
      });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().code, url).toBe('PRIVATE_ADDRESS');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct',
      payload: { url: 'https://example.com/a.mp4' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('validates task parameters', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'params');
    const badSource = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=myspace',
      headers: user.headers,
      payload: { url: 'https://example.com/a.mp4' },
    });
    expect(badSource.statusCode).toBe(400);
    expect(badSource.json().code).toBe('VALIDATION_FAILED');
    const badLang = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct&source_lang=$(rm -rf)',
      headers: user.headers,
      payload: { url: 'https://example.com/a.mp4' },
    });
    expect(badLang.statusCode).toBe(400);
    const badClipLength = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct&clip_length=forever',
      headers: user.headers,
      payload: { url: 'https://example.com/a.mp4' },
    });
    expect(badClipLength.statusCode).toBe(400);
    expect(badClipLength.json().code).toBe('VALIDATION_FAILED');
    const foreignUpload = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=upload',
      headers: user.headers,
      payload: { url: 'upload://6f1c1a52-0000-4000-8000-000000000000' },
    });
    expect(foreignUpload.statusCode).toBe(404);
  });
});
