/**
 * Nothing kills the server, on a real server process (PGlite and PostgreSQL):
 * - the crash path: three exports started at once and deleted while their face analysis runs,
 *   20 rounds. A cancelled analysis used to leave ffmpeg's `done` promise to reject unhandled
 *   while the frame loop awaited the detector, and the process exited (1 try in about 15);
 * - an error thrown inside a job is logged with the job's ids and the process keeps serving.
 * Transcription is a local stand-in for a remote endpoint (ASR_BASE_URL): the task only needs
 * to exist; the exports are analysed and rendered by the real ffmpeg and the real face detector.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS, createScratchPostgres } from './support/databases.js';
import { spawnServer, type ServerProcess } from './support/process.js';
import { signUp, sleep, startLinkTask, waitFor, waitForTaskEnd } from './support/remote.js';
import {
  realTimeAnalysisFfmpeg,
  startTranscriptionStandIn,
  type TranscriptionStandIn,
} from './support/stand-ins.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
if (!hasFfmpeg) console.warn('Skipping the crash-path tests: ffmpeg is missing (scripts/setup.sh)');

const VIDEO_MS = 60_000;
const ROUNDS = 20;
const SPAN_MS = 8_000;
const ASPECTS = ['9:16', '1:1', '4:5'] as const;
/** A talk about a marathon, said over the whole minute (the stand-in spreads the words). */
const TALK =
  `Hello everyone, and thanks for joining us today. The meetings will stay on Tuesday evenings at seven.
Now I want to tell you a story about my first marathon. I trained for six months and I felt ready.
On race day I started way too fast, because everybody around me was sprinting.
By mile twenty my legs were completely gone, and I was walking.
Then a tiny old woman in a pink tutu jogged past me, smiling.
She turned around and shouted, you can do it, honey, I am ninety one!
I laughed so hard that I started running again, and I finished the race.
That is when I learned that pride is a terrible fuel, but laughter is the best one.
So the next time you feel like giving up, remember the woman in the pink tutu.
Thank you all for coming, and see you on Tuesday.`.replace(/\s+/g, ' ');

/** The server's JSON log lines so far. */
const logLines = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .flatMap((line): Record<string, unknown>[] => {
      try {
        return line.startsWith('{') ? [JSON.parse(line)] : [];
      } catch {
        return []; // the last line, still being written
      }
    });

let workDir: string;
let served: ServedFiles;
let transcriber: TranscriptionStandIn;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-never-dies-'));
  const mediaDir = path.join(workDir, 'served');
  await fs.mkdir(mediaDir);
  // 720p: each span's analysis decodes for a few seconds on a loaded machine.
  await makeTestVideo(path.join(mediaDir, 'talk.mp4'), {
    width: 1280,
    height: 720,
    durationSec: VIDEO_MS / 1000,
  });
  served = await serveFiles(mediaDir);
  transcriber = await startTranscriptionStandIn(TALK, VIDEO_MS);
}, 180_000);

afterAll(async () => {
  await served?.close();
  await transcriber?.close();
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

describe.each(DATABASE_TARGETS)('a server that never dies, on $name', (target) => {
  let skip: string | null = null;
  let server: ServerProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let dataDir: string;

  beforeAll(async () => {
    skip = hasFfmpeg ? await target.unavailable() : 'ffmpeg is missing';
    if (skip) return;
    dataDir = path.join(workDir, target.name);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(workDir, 'no-web'),
      MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
      ASR_BASE_URL: transcriber.baseUrl,
      // The three exports of a round run at once, as three users' exports would.
      WORKER_CONCURRENCY: '3',
      // Face analysis decodes at the video's own pace, as on a busy machine: a cancelled
      // analysis's ffmpeg then ends while the frame loop still waits on the detector, the
      // moment the crash needed (otherwise 1 try in about 15).
      FFMPEG_PATH: await realTimeAnalysisFfmpeg(workDir),
      LOG_LEVEL: 'info',
    };
    if (target.name === 'postgres') {
      const scratch = await createScratchPostgres();
      env.DATABASE_URL = scratch.url;
      dropDatabase = scratch.drop;
    }
    server = await spawnServer(env);
  }, 200_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await dropDatabase?.();
  });

  /** Fails the test, with the server's output, if the process is gone. */
  const expectServing = async () => {
    expect(server!.child.exitCode, server!.output().slice(-4000)).toBeNull();
    expect(server!.child.signalCode).toBeNull();
    const health = await fetch(`${server!.url}/api/health`);
    expect(health.status).toBe(200);
  };

  it('three exports deleted mid-analysis, 20 rounds: the server stays up', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const call = await signUp(() => server!, `crash-path-${target.name}`);
    const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
    const task = await waitForTaskEnd(call, taskId, 180_000);
    expect(task.error_reason, server!.output()).toBeNull();
    const [moment] = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);
    expect(moment, 'a moment to export').toBeDefined();
    const pid = server!.child.pid;

    let deletedMidAnalysis = 0;
    try {
      await rounds();
    } catch (error) {
      // A refused connection means the process is gone: say so, with what it printed last.
      await Promise.race([once(server!.child, 'exit'), sleep(2_000)]);
      await expectServing();
      throw error;
    }
    async function rounds() {
      for (let round = 0; round < ROUNDS; round++) {
        // A span no earlier round finished analysing, so each round's exports analyse again.
        const startMs = (round * 2_500) % (VIDEO_MS - SPAN_MS);
        const jobs = await Promise.all(
          ASPECTS.map(async (aspect) => {
            const started = await call('POST', '/api/job', {
              type: 'VIRAL_MOMENT_EXPORT',
              moment_id: moment.id,
              options: {
                aspect,
                quality: '720p',
                layout: 'auto',
                start_ms: startMs,
                end_ms: startMs + SPAN_MS,
              },
            });
            return started.job_id as string;
          }),
        );
        // Each export is deleted once its analysis has looked at frames: mid-analysis (progress
        // 3-30) when the poll catches it there, which is what the repro needs.
        const left = new Set(jobs);
        await waitFor(
          `round ${round}: exports deleted`,
          120_000,
          async () => {
            for (const jobId of [...left]) {
              const job = await call('GET', `/api/job/${jobId}`);
              // Past 3 %, its first frames went through the detector: ffmpeg is decoding.
              if (job.status === 'IN_PROGRESS' && job.progress <= 3) continue;
              if (job.status === 'IN_PROGRESS' && job.progress < 30) deletedMidAnalysis++;
              await call('DELETE', `/api/job/${jobId}`);
              left.delete(jobId);
            }
            return left.size === 0 ? true : undefined;
          },
          50,
        );
        await expectServing();
      }
    }
    // Let the last cancelled runs settle: their rejections would surface now.
    await sleep(3_000);
    await expectServing();
    expect(server!.child.pid).toBe(pid);
    expect(
      deletedMidAnalysis,
      'deletions that caught an analysis under way',
    ).toBeGreaterThanOrEqual(ROUNDS);
    expect(server!.output()).not.toMatch(/unhandled promise rejection|uncaught exception/);
    // Deleted exports are refunded: the free plan's three exports are all still there.
    const info = await call('GET', '/api/user/info');
    const exports = info.entitlements.find(
      (entitlement: { feature: string }) => entitlement.feature === 'CANVAS_EXPORT',
    );
    expect(exports.usage).toBe(0);
  }, 900_000);

  it('an error thrown inside a job is logged with its ids and the server keeps serving', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const call = await signUp(() => server!, `job-error-${target.name}`);
    const info = await call('GET', '/api/user/info');
    const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
    const task = await waitForTaskEnd(call, taskId, 180_000);
    expect(task.error_reason, server!.output()).toBeNull();
    const [moment] = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);

    // The work folder's parent turns into a file: every render now throws ENOTDIR, an error no
    // code path expects.
    const workRoot = path.join(dataDir, 'tmp');
    // The server may be writing there meanwhile (the background analysis of the task's moments,
    // its tools' pid records): the removal retries until the folder is gone and the file is in.
    await waitFor('the work folder replaced by a file', 30_000, async () => {
      await fs.rm(workRoot, { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
      return fs.writeFile(workRoot, 'not a folder', { flag: 'wx' }).then(
        () => true,
        () => undefined,
      );
    });
    try {
      const started = await call('POST', '/api/job', {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: moment.id,
        options: { aspect: '9:16', quality: '720p' },
      });
      const jobId = started.job_id as string;
      const job = await waitFor(`export ${jobId} to end`, 120_000, async () => {
        const current = await call('GET', `/api/job/${jobId}`);
        return current.status === 'IN_PROGRESS' ? undefined : current;
      });
      expect(job.status).toBe('ERROR');
      expect(job.error_reason).not.toMatch(/ENOTDIR|\/tmp/); // the user is not shown internals
      // The log line comes through the server's stdout pipe, possibly after the reply.
      const logged = await waitFor('the failure logged', 10_000, () =>
        logLines(server!).find((line) => line.jobId === jobId && line.level === 50),
      );
      expect(logged).toMatchObject({
        jobId,
        userId: info.id,
        taskId,
        err: { code: 'ENOTDIR' },
      });
      await expectServing();
    } finally {
      await fs.rm(workRoot, { force: true });
      await fs.mkdir(workRoot, { recursive: true }); // the server may have made it again already
    }
  }, 300_000);
});
