/**
 * Graceful close and the sweep at start:
 * - in process (PGlite and PostgreSQL): closing the app while a span cut that sharing started, or
 *   an export, is under way resolves only once nothing writes any more: the files stay as they
 *   are afterwards and no ffmpeg of it is left (the suite once went red on a teardown that found
 *   files still being written);
 * - a real server process: SIGTERM mid-export exits 0 with its tools stopped, and the restarted
 *   server finishes the export; kill -9 mid-task and mid-export leaves their work folders (a
 *   task's audio.wav), which the next start removes before it serves.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask } from './support/fixtures.js';
import { signUp as signUpInProcess, startTestApp, type TestApp } from './support/app.js';
import { spawnServer, type ServerProcess } from './support/process.js';
import { signUp, sleep, startLinkTask, waitFor, waitForTaskEnd } from './support/remote.js';
import {
  realTimeAnalysisFfmpeg,
  startTranscriptionStandIn,
  type TranscriptionStandIn,
} from './support/stand-ins.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
if (!hasFfmpeg) console.warn('Skipping the graceful-close tests: ffmpeg is missing (setup.sh)');

const VIDEO_MS = 30_000;
const WORDS = Array.from({ length: 60 }, (_, i) => ({
  text: `word${i}`,
  startMs: i * 500,
  endMs: i * 500 + 400,
}));
const TALK = WORDS.map((word) => word.text).join(' ');

let workDir: string;
let video: string;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-close-'));
  await fs.mkdir(path.join(workDir, 'served'));
  // 1080p, so a span cut and an export take seconds, long enough to close in the middle.
  video = await makeTestVideo(path.join(workDir, 'served', 'talk.mp4'), {
    width: 1920,
    height: 1080,
    durationSec: VIDEO_MS / 1000,
  });
}, 180_000);
afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** Every file under `dir` with its size: what is on disk at one moment. */
async function snapshot(dir: string): Promise<Record<string, number>> {
  const files: Record<string, number> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat) files[path.relative(dir, file)] = stat.size;
  }
  return files;
}

/** ffmpeg processes this test process started (the tools run in their own process groups). */
function ffmpegChildren(): number[] {
  const found: number[] = [];
  for (const name of spawnSync('ls', ['/proc'], { encoding: 'utf8' }).stdout.split('\n')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // ffmpeg runs under nice: its parent is this process, or nice's own parent is.
      if (command === 'ffmpeg' && Number(fields[1]) === process.pid) found.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describe.each(DATABASE_TARGETS)('closing the app on $name', (target) => {
  let skip: string | null = null;

  beforeAll(async () => {
    skip = hasFfmpeg ? await target.unavailable() : 'ffmpeg is missing';
  });

  /** A user with a DONE task on the 30 s video, one moment spanning all of it. */
  const userWithLongTask = async (t: TestApp, name: string) => {
    const user = await signUpInProcess(t.app, name);
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'A long talk',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { startMs: 0, endMs: VIDEO_MS, title: 'All of it' },
    });
    return { user, momentId };
  };

  /** Closes as TestApp.close does, without removing DATA_DIR: its files are what is checked. */
  const closeKeepingFiles = async (t: TestApp) => {
    await t.app.close();
    await t.services.close();
  };

  /** After close: the files do not change any more and no ffmpeg of the app is left. */
  const expectNothingWrites = async (t: TestApp) => {
    const closed = await snapshot(t.dataDir);
    expect(ffmpegChildren()).toEqual([]);
    await sleep(1_500);
    expect(await snapshot(t.dataDir)).toEqual(closed);
    // The teardown that once failed with ENOTEMPTY.
    await fs.rm(t.dataDir, { recursive: true });
  };

  it('waits for the span cut that sharing a moment started', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const t = await startTestApp(await target.open());
    const { user, momentId } = await userWithLongTask(t, 'sharer');
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/share?id=${momentId}`,
      headers: user.headers,
      payload: {},
    });
    expect(shared.statusCode, shared.body).toBe(200);
    // The cut runs in the background now; close at once.
    await closeKeepingFiles(t);
    await expectNothingWrites(t);
  }, 120_000);

  it('stops an export under way and resolves once nothing writes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const t = await startTestApp(await target.open(), {}, { workers: true });
    const { user, momentId } = await userWithLongTask(t, 'exporter');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: { aspect: '9:16', quality: '1080p' },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = started.json().data.job_id as string;
    await waitFor('the export working', 60_000, async () => {
      const job = await t.app.inject({
        method: 'GET',
        url: `/api/job/${jobId}`,
        headers: user.headers,
      });
      const { status, progress } = job.json().data;
      expect(status).toBe('IN_PROGRESS');
      return progress > 3 && ffmpegChildren().length > 0 ? true : undefined;
    });
    const closing = Date.now();
    await closeKeepingFiles(t);
    // Stopped, not rendered to the end (a 30 s 1080p clip takes far longer here).
    expect(Date.now() - closing).toBeLessThan(20_000);
    await expectNothingWrites(t);
  }, 180_000);
});

describe.skipIf(!hasFfmpeg)('a server process stopped and killed', () => {
  let served: ServedFiles;
  let transcriber: TranscriptionStandIn;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  let dataDir: string;

  beforeAll(async () => {
    served = await serveFiles(path.dirname(video));
    transcriber = await startTranscriptionStandIn(TALK, VIDEO_MS);
    dataDir = path.join(workDir, 'server');
    env = {
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(workDir, 'no-web'),
      MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
      ASR_BASE_URL: transcriber.baseUrl,
      FFMPEG_PATH: await realTimeAnalysisFfmpeg(workDir),
      TASK_LEASE_MS: '4000',
      WORKER_CONCURRENCY: '2',
    };
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await served?.close();
    await transcriber?.close();
  });

  const tmpRoot = () => path.join(dataDir, 'tmp');
  /** The work folders of runs: <process folder>/<task-… or job-…>. */
  const runFolders = async () => {
    const folders: string[] = [];
    for (const processFolder of await fs.readdir(tmpRoot()).catch(() => [] as string[])) {
      const inside = await fs.readdir(path.join(tmpRoot(), processFolder)).catch(() => []);
      folders.push(...inside.map((name) => `${processFolder}/${name}`));
    }
    return folders;
  };
  /** An export of six seconds from `startMs` (a span no earlier test analysed): short to analyse and render. */
  const startExport = async (
    call: Awaited<ReturnType<typeof signUp>>,
    taskId: string,
    startMs: number,
  ) => {
    const [moment] = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);
    const started = await call('POST', '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moment.id,
      options: {
        aspect: '9:16',
        quality: '720p',
        layout: 'auto',
        start_ms: startMs,
        end_ms: startMs + 6_000,
      },
    });
    return started.job_id as string;
  };
  const analysing = (call: Awaited<ReturnType<typeof signUp>>, jobId: string) =>
    waitFor('the export analysing', 60_000, async () => {
      const job = await call('GET', `/api/job/${jobId}`);
      expect(job.status, server!.output()).toBe('IN_PROGRESS');
      return job.progress > 3 && job.progress < 30 ? true : undefined;
    });

  it('SIGTERM mid-export: exits 0 with nothing left behind, and the restart finishes it', async () => {
    server = await spawnServer(env);
    const call = await signUp(() => server!, 'stopped');
    const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
    expect((await waitForTaskEnd(call, taskId, 120_000)).error_reason, server.output()).toBeNull();
    const jobId = await startExport(call, taskId, 0);
    await analysing(call, jobId);
    expect(await runFolders()).toContainEqual(expect.stringMatching(/^run-.*\/job-/));

    const stopping = Date.now();
    await server.kill('SIGTERM');
    expect(server.child.exitCode, server.output()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(20_000);
    // Its scratch folder went with it; its ffmpeg too (nothing recorded as running).
    expect(await runFolders()).toEqual([]);
    expect(await fs.readdir(path.join(dataDir, 'procs'))).toEqual([]);

    server = await spawnServer(env);
    const job = await waitFor(
      'the export resumed and finished',
      180_000,
      async () => {
        const current = await call('GET', `/api/job/${jobId}`);
        return current.status === 'IN_PROGRESS' ? undefined : current;
      },
      500,
    );
    expect(job.error_reason, server.output()).toBeNull();
    expect(job.status).toBe('DONE');
    await server.kill('SIGTERM');
  }, 420_000);

  it('kill -9 mid-task and mid-export: the next start removes their work folders', async () => {
    server = await spawnServer(env);
    const call = await signUp(() => server!, 'killed');
    const finished = await startLinkTask(call, `${served.url}/talk.mp4`);
    expect((await waitForTaskEnd(call, finished, 120_000)).error_reason).toBeNull();

    // One task waits on its transcription (its audio extracted), one export analyses.
    transcriber.hold();
    const heard = transcriber.requests();
    const transcribing = await startLinkTask(call, `${served.url}/talk.mp4`);
    await waitFor('the audio sent to the transcriber', 60_000, () =>
      transcriber.requests() > heard ? true : undefined,
    );
    const jobId = await startExport(call, finished, 12_000);
    await analysing(call, jobId);
    const left = await runFolders();
    expect(left).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`/task-${transcribing}-`)),
        expect.stringMatching(new RegExp(`/job-${jobId}-`)),
      ]),
    );
    const taskFolder = left.find((folder) => folder.includes(`/task-${transcribing}-`))!;
    expect(await fs.readdir(path.join(tmpRoot(), taskFolder))).toContain('audio.wav');

    await server.kill('SIGKILL');
    expect(await runFolders()).toEqual(expect.arrayContaining(left));
    transcriber.answer();
    server = await spawnServer(env);
    // Swept before the server answered its first request: nothing of the dead run is left.
    const now = await runFolders();
    for (const folder of left) expect(now).not.toContain(folder);
    expect(await fs.readdir(tmpRoot())).not.toContain(left[0]!.split('/')[0]);
  }, 420_000);
});
