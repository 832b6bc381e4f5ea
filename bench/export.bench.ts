/**
 * `npm run bench -- export`: a short export at the encoder's pace. A 25 s clip of a 148 s talk
 * (real-looking footage made at bench time) exported to 1080x1920 through the product (POST
 * /api/job on the in-process server, the real renderer, finished when its DONE message is
 * published), beside an x264 veryfast encode alone of the same span and size in the same run,
 * alternated so a load that rises or falls weighs on both alike. Prints each export's time, the
 * encode's, their ratio against the 1.5 goal, and where the export's time went (its stage log).
 * `EXPORT_BENCH_RUNS` sets how many of each (default 3). Exits non-zero only on a crash.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Job } from '@moments/contract';
import { humanAssetsDir, makeFootage, slideFontFile } from '@moments/media/testing';
import { startBenchServer, type BenchServer } from './bench-server';
import { encodeAlone, seedTask } from './speed/export-stage';

const SOURCE_SEC = 148;
const CLIP = { name: '25 s', startMs: 61_000, endMs: 86_000 };
const GOAL = 1.5;
const RUNS = Math.max(1, Number(process.env.EXPORT_BENCH_RUNS ?? 3));

const load = () =>
  `load ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export default async function run(): Promise<void> {
  if (!humanAssetsDir() || !slideFontFile()) {
    console.log('export: skipped (no @vladmandic/human demo images or Noto Sans)');
    return;
  }
  console.log(
    `export: ${os.cpus().length} cores; uptime: ${execFileSync('uptime').toString().trim()}`,
  );
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-export-bench-'));
  try {
    const source = path.join(dir, 'talk.mp4');
    await makeFootage('mixed', source, { durationSec: SOURCE_SEC, fps: 30, preset: 'veryfast' });
    const server = await startBenchServer(path.join(dir, 'server'), 'short-exporter', {
      BILLING: 'off',
    });
    try {
      const prepared = await seedTask(server, source, 'prepared', [CLIP], SOURCE_SEC);
      // The framing-prepare job's own work, as after any task: the export then only renders.
      await server.services.framingPreparer.prepareTask(prepared.taskId);
      const out = path.join(dir, 'alone.mp4');
      const alone = async () => {
        const started = performance.now();
        await encodeAlone(source, CLIP, out);
        return (performance.now() - started) / 1000;
      };
      // One of each first, unmeasured: the page cache and the encoder's first start.
      await exportOnce(server, prepared.momentIds[0]!);
      await alone();
      const exports: number[] = [];
      const colds: number[] = [];
      const encodes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const exported = await exportOnce(server, prepared.momentIds[0]!);
        const encoded = await alone();
        // A moment the background analysis has not reached (a fresh copy of the source).
        const cold = await seedTask(server, source, `cold ${i}`, [CLIP], SOURCE_SEC);
        const unprepared = await exportOnce(server, cold.momentIds[0]!);
        exports.push(exported.sec);
        colds.push(unprepared.sec);
        encodes.push(encoded);
        console.log(
          `export: run ${i + 1}: export ${exported.sec.toFixed(2)} s (${exported.stages}), ` +
            `x264 veryfast alone ${encoded.toFixed(2)} s, ratio ${(exported.sec / encoded).toFixed(2)}; ` +
            `not analysed before: ${unprepared.sec.toFixed(2)} s (${unprepared.stages}), ratio ` +
            `${(unprepared.sec / encoded).toFixed(2)}; ${load()}`,
        );
      }
      const [e, c, a] = [median(exports), median(colds), median(encodes)];
      console.log(
        `export: ${CLIP.name} of a ${SOURCE_SEC} s talk to 1080x1920 after the background analysis, ` +
          `median of ${RUNS}: export ${e.toFixed(2)} s end to end vs x264 veryfast encode alone of the ` +
          `same span and size ${a.toFixed(2)} s: ratio ${(e / a).toFixed(2)} (goal <= ${GOAL}: ` +
          `${e / a <= GOAL ? 'met' : 'NOT met'}); a moment not analysed before: ${c.toFixed(2)} s, ` +
          `ratio ${(c / a).toFixed(2)}; ${load()}`,
      );
    } finally {
      await server.close();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    console.log(`export: done; uptime: ${execFileSync('uptime').toString().trim()}`);
  }
}

/**
 * POST /api/job with the studio's defaults, timed from the request to the job's DONE message on
 * the realtime bus (what a browser waits for), with the stage times the renderer logged.
 */
async function exportOnce(server: BenchServer, momentId: string) {
  const { app, headers, services } = server;
  let jobId = '';
  let finished: ((at: number) => void) | undefined;
  const done = new Promise<number>((resolve) => (finished = resolve));
  const early: string[] = [];
  const stop = await services.bus.subscribe((_user, message) => {
    const data = message.data as { job_id?: string; job_status?: string };
    if (data.job_status !== 'DONE' && data.job_status !== 'ERROR') return;
    if (data.job_id === jobId) finished?.(performance.now());
    else if (data.job_id) early.push(data.job_id);
  });
  const started = performance.now();
  try {
    const response = await app.inject({
      method: 'POST',
      url: '/api/job',
      headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: { aspect: '9:16', quality: '1080p', template: 'karaoke' },
      },
    });
    if (response.statusCode !== 200) throw new Error(`export refused: ${response.body}`);
    jobId = Job.parse(response.json().data).job_id;
    const end = early.includes(jobId) ? performance.now() : await done;
    const job = Job.parse(
      (await app.inject({ method: 'GET', url: `/api/job/${jobId}`, headers })).json().data,
    );
    if (job.status !== 'DONE') throw new Error(`export failed: ${job.error_reason}`);
    const timings = services.exportRenderer.lastTimings;
    const stages = timings
      ? Object.entries(timings)
          .map(([k, ms]) => `${k} ${ms} ms`)
          .join(', ')
      : '';
    return { sec: (end - started) / 1000, stages };
  } finally {
    await stop();
  }
}
