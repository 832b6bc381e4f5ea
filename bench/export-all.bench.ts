/**
 * Export all against single exports: five 4 s moments of a 30 s talk rendered to 720x1280, once
 * as five single exports started together and once as one export-all batch, on the whole product
 * in this process (API, workers, embedded database). Prints each in clips per minute and the
 * ratio: the batch reuses the single export's renderer, so the ratio says what the batch's own
 * bookkeeping costs (about 1.0 expected).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ExportBatch, Job } from '../packages/contract/src/index';
import { runFfmpeg } from '../packages/media/src/ffmpeg/index';
import { moments } from '../apps/server/src/db/schema';
import { seedFinishedTask } from '../apps/server/test/support/fixtures';
import type { TestApp } from '../apps/server/test/support/app';
import { startBenchServer, type BenchServer } from './bench-server';

const VIDEO_MS = 30_000;
const CLIPS = 5;
const CLIP_MS = 4000;
const OPTIONS = { aspect: '9:16', quality: '720p', template: 'one_word', layout: 'fit' };

const words = Array.from({ length: 48 }, (_, i) => ({
  text: ['focus', 'builds', 'every', 'habit'][i % 4]!,
  startMs: 600 + i * 600,
  endMs: 1000 + i * 600,
}));

/** A DONE task of the talk with five moments; returns their ids. */
async function seedTalk(
  server: BenchServer,
  video: string,
): Promise<{ taskId: string; momentIds: string[] }> {
  const spans = Array.from({ length: CLIPS }, (_, i) => ({
    startMs: 1000 + i * 5500,
    endMs: 1000 + i * 5500 + CLIP_MS,
  }));
  const fake = { services: server.services } as unknown as TestApp;
  const { taskId, momentId } = await seedFinishedTask(fake, server.userId, {
    video,
    title: 'Bench talk',
    durationMs: VIDEO_MS,
    words,
    moment: { ...spans[0]!, title: 'Clip 1' },
  });
  const rest = await server.services.database.db
    .insert(moments)
    .values(
      spans.slice(1).map((span, i) => ({
        taskId,
        userId: server.userId,
        type: 'video_snippet',
        rank: i + 1,
        ...span,
        score: 70,
        title: `Clip ${i + 2}`,
      })),
    )
    .returning();
  return { taskId, momentIds: [momentId, ...rest.map((row) => row.id)] };
}

async function waitAll(server: BenchServer, jobIds: string[]): Promise<void> {
  for (;;) {
    const jobs = await Promise.all(
      jobIds.map(async (id) =>
        Job.parse(
          (
            await server.app.inject({
              method: 'GET',
              url: `/api/job/${id}`,
              headers: server.headers,
            })
          ).json().data,
        ),
      ),
    );
    const failed = jobs.find((job) => job.status === 'ERROR');
    if (failed) throw new Error(`export failed: ${failed.error_reason}`);
    if (jobs.every((job) => job.status === 'DONE')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export default async function run(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'export-all-bench-'));
  const server = await startBenchServer(dir, 'exportall', { BILLING: 'off' });
  try {
    const video = path.join(dir, 'talk.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=25:duration=${VIDEO_MS / 1000}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:duration=${VIDEO_MS / 1000}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      video,
    ]);
    // Two talks: the second run must not reuse the first's stored analyses (loudness, framing).
    const singlesOf = await seedTalk(server, video);
    const batchOf = await seedTalk(server, video);

    let started = performance.now();
    const singleIds: string[] = [];
    for (const momentId of singlesOf.momentIds) {
      const reply = await server.app.inject({
        method: 'POST',
        url: '/api/job',
        headers: server.headers,
        payload: { type: 'VIRAL_MOMENT_EXPORT', moment_id: momentId, options: OPTIONS },
      });
      singleIds.push(Job.parse(reply.json().data).job_id);
    }
    await waitAll(server, singleIds);
    const singlesMs = performance.now() - started;

    started = performance.now();
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/job/batch',
      headers: server.headers,
      payload: { task_id: batchOf.taskId, moment_ids: batchOf.momentIds, options: OPTIONS },
    });
    const batchId = created.json().data.batch_id as string;
    for (;;) {
      const batch = ExportBatch.parse(
        (
          await server.app.inject({
            method: 'GET',
            url: `/api/job/batch/${batchId}`,
            headers: server.headers,
          })
        ).json().data,
      );
      if (batch.status === 'ERROR') throw new Error('the batch failed');
      if (batch.status === 'DONE' && batch.finished_at) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const batchMs = performance.now() - started;

    const perMinute = (ms: number) => (CLIPS / ms) * 60_000;
    console.log(
      `5 single exports: ${(singlesMs / 1000).toFixed(1)} s, ${perMinute(singlesMs).toFixed(1)} clips/min`,
    );
    console.log(
      `export all (5):   ${(batchMs / 1000).toFixed(1)} s, ${perMinute(batchMs).toFixed(1)} clips/min`,
    );
    console.log(
      `export all / single throughput: ${(perMinute(batchMs) / perMinute(singlesMs)).toFixed(2)}x`,
    );
  } finally {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
