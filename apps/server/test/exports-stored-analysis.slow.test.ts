/**
 * Framing plans and loudness measures are kept in the database (media_analyses), so a second
 * process never analyses a span again: the editor's preview answered by one server process is the
 * plan an export started through another process renders, with no face analysis of its own, and a
 * second export of the same span reuses the stored loudness. Two servers share one PostgreSQL here,
 * as an API machine and a render worker would; the planner itself is also checked on PGlite.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ClipFraming, Job } from '@moments/contract';
import { runFfmpeg } from '@moments/media/ffmpeg';
import type { DetectedStretch } from '@moments/media/reframe';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { jobs, mediaAnalyses } from '../src/db/schema.js';
import { FramingPlanner } from '../src/modules/exports/clip-framing.js';
import type { ClipFraming as Framing } from '../src/modules/media/clip-render.js';
import type { JobOptions } from '../src/modules/exports/export-renderer.js';
import { MediaAnalysesRepository } from '../src/modules/exports/media-analyses.repository.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { createScratchPostgres, postgresReachable, openPglite } from './support/databases.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';
import { ToolsMediaRepository } from '../src/modules/media/tools-media.repository.js';

/** Real ffmpeg and the real face detector behind the planner. */
const media = new ToolsMediaRepository();

const postgres = await postgresReachable();
if (!postgres) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error('PostgreSQL is not reachable');
  console.warn('Skipping the two-process stored-analysis test: PostgreSQL is not reachable');
}

const VIDEO_MS = 3000;
const MOMENT = { startMs: 200, endMs: 2600 };
const WORDS = [
  { text: 'one', startMs: 400, endMs: 900 },
  { text: 'two', startMs: 1400, endMs: 1900 },
];
const OPTIONS = { aspect: '9:16', quality: '720p', caption_display: 'none' } as const;

let workDir: string;
let video: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-stored-'));
  video = path.join(workDir, 'pattern.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${VIDEO_MS / 1000}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=300:duration=${VIDEO_MS / 1000}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video],
  ]);
});
afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

describe('framing planner with a store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('a second planner (another process) answers from the database without touching the source', async () => {
    const repo = new MediaAnalysesRepository(database.db);
    const store = {
      find: (mediaKey: string, key: string) => repo.find<Framing>(mediaKey, 'framing', key),
      save: (mediaKey: string, key: string, framing: Framing) =>
        repo.save(mediaKey, 'framing', key, framing),
    };
    let analyses = 0;
    const lend = <T>(work: (file: string) => Promise<T>) => {
      analyses++;
      return work(video);
    };
    const request = {
      aspect: '9:16',
      quality: '720p',
      layout: 'auto',
      ...MOMENT,
      source: { width: 640, height: 360 },
      output: { width: 720, height: 1280 },
    } as const;
    const first = await new FramingPlanner(media, store).plan('media/a.mp4', request, lend);
    expect(analyses).toBe(1);
    const second = await new FramingPlanner(media, store).plan('media/a.mp4', request, lend);
    expect(analyses).toBe(1);
    expect(second).toEqual(first);
    // Another span of the same media is a different plan: analysed.
    await new FramingPlanner(media, store).plan('media/a.mp4', { ...request, startMs: 0 }, lend);
    expect(analyses).toBe(2);
  });

  it('a second planner (another process) decodes only the part of an overlapping span the first did not analyse', async () => {
    const repo = new MediaAnalysesRepository(database.db);
    const store = {
      find: (mediaKey: string, key: string) => repo.find<Framing>(mediaKey, 'framing', key),
      save: (mediaKey: string, key: string, framing: Framing) =>
        repo.save(mediaKey, 'framing', key, framing),
      findDetections: (mediaKey: string, settings: string) =>
        repo.list<DetectedStretch>(mediaKey, 'faces', `${settings}|`),
      saveDetections: (mediaKey: string, stretch: DetectedStretch) =>
        repo.save(
          mediaKey,
          'faces',
          `${stretch.settings}|${stretch.startMs}-${stretch.endMs}`,
          stretch,
        ),
    };
    const lend = <T>(work: (file: string) => Promise<T>) => work(video);
    const request = {
      aspect: '9:16',
      quality: '720p',
      layout: 'auto',
      startMs: 0,
      endMs: 2000,
      source: { width: 640, height: 360 },
      output: { width: 720, height: 1280 },
    } as const;
    const first = new FramingPlanner(media, store);
    await first.plan('media/b.mp4', request, lend);
    const later = { ...request, startMs: 1000, endMs: 3000 };
    const second = new FramingPlanner(media, store);
    const reused = await second.plan('media/b.mp4', later, lend);
    const alone = new FramingPlanner(media);
    const fresh = await alone.plan('media/b.mp4', later, lend);
    expect(first.framesDecoded).toBeGreaterThanOrEqual(8);
    expect(second.framesDecoded).toBeLessThanOrEqual(alone.framesDecoded / 2 + 1);
    expect(reused).toEqual(fresh);
    const rows = await repo.list<DetectedStretch>('media/b.mp4', 'faces');
    expect(rows.map((row) => [row.startMs, row.endMs])).toEqual([
      [0, 2000],
      [2000, 3000],
    ]);
  });
});

describe.skipIf(!postgres)('stored analyses across two server processes on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let api: TestApp;
  let worker: TestApp;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    // The API process plans previews but renders nothing; the worker process renders. They share
    // the stored files (DATA_DIR here, S3 in a real deployment) and the database, nothing else.
    const shared = { DATA_DIR: path.join(workDir, 'data') };
    api = await startTestApp(await openDatabase({ url: scratch.url }), shared);
    worker = await startTestApp(await openDatabase({ url: scratch.url }), shared, {
      workers: true,
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await scratch?.drop();
  });

  it('the export rendered by the worker uses the plan the API process previewed, and a second export reuses the loudness', async () => {
    const user = await signUp(api.app, 'stored');
    const { momentId } = await seedFinishedTask(api, user.userId, {
      video,
      title: 'Pattern',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { ...MOMENT, title: 'Pattern' },
    });
    expect(await api.services.database.db.select().from(mediaAnalyses)).toEqual([]);

    const preview = await api.app.inject({
      method: 'POST',
      url: '/api/captions/framing',
      headers: user.headers,
      payload: { moment_id: momentId, options: OPTIONS },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewed = ClipFraming.parse(preview.json().data);

    const exportOnce = async (template?: string) => {
      const started = await worker.app.inject({
        method: 'POST',
        url: '/api/job',
        headers: user.headers,
        payload: {
          type: 'VIRAL_MOMENT_EXPORT',
          moment_id: momentId,
          options: template ? { ...OPTIONS, template } : OPTIONS,
        },
      });
      expect(started.statusCode, started.body).toBe(200);
      const jobId = Job.parse(started.json().data).job_id;
      // Attached when the job was made, from the database: the render has nothing to analyse.
      const [row] = await worker.services.database.db.select().from(jobs).where(eq(jobs.id, jobId));
      const attached = (row!.options as JobOptions).framing;
      return { jobId, attached };
    };

    const first = await exportOnce();
    expect(first.attached?.layout).toBe(previewed.layout);
    const done = await waitForJob(worker.app, user.headers, first.jobId);
    expect(done.error_reason).toBeNull();
    expect(done.status).toBe('DONE');

    const kept = await worker.services.database.db.select().from(mediaAnalyses);
    // The source's facts too: the second export starts without running ffprobe.
    expect(kept.map((row) => row.kind).sort()).toEqual(['faces', 'framing', 'loudness', 'probe']);

    // A second export of the same span, with another template: same plan, same loudness row.
    const second = await exportOnce('classic');
    expect(second.attached).toEqual(first.attached);
    const doneAgain = await waitForJob(worker.app, user.headers, second.jobId);
    expect(doneAgain.status).toBe('DONE');
    expect(await worker.services.database.db.select().from(mediaAnalyses)).toEqual(kept);
  }, 240_000);
});
