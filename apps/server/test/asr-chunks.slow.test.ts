// A task's audio cut into chunks that any worker process may take. Three worker
// processes and an API process share one PostgreSQL and one data folder; the chunks of a task
// are shared out among the workers, merged in order with continuous word times, and the chunk of
// a worker killed with -9 is done again, once, by another.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { makeTestVideo } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  englishRecordings,
  joinRecordings,
  type Recording,
} from '../../../packages/ai/test/support/recordings.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { spawnServer, type ServerProcess } from './support/process.js';

const postgres = await postgresReachable();
const engine = fasterWhisperAvailability();
const recordings = englishRecordings();
const librivox = recordings.filter((r) => r.name.startsWith('librivox/'));
const jfk = recordings.find((r) => r.name === 'jfk');
const skipReason = !postgres
  ? 'PostgreSQL is not reachable'
  : !engine.available
    ? engine.reason
    : !librivox.length || !jfk
      ? 'needs ../shared/media and pocketsphinx-testdata (LibriVox; scripts/setup.sh)'
      : undefined;
if (skipReason) {
  if (process.env.REQUIRE_POSTGRES === '1' && !postgres) throw new Error(skipReason);
  console.warn(`Skipping the chunked transcription test: ${skipReason}`);
}

interface ChunkRow {
  idx: number;
  status: string;
  attempts: number;
  worker: string | null;
  start_ms: number;
  end_ms: number;
}

describe.skipIf(!!skipReason)('transcription in chunks across three worker processes', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let dir: string;
  let db: pg.Client;
  let api: ServerProcess;
  const workers: ServerProcess[] = [];
  let reference = '';
  let video = '';

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-asr-chunks-'));
    // About 75 s of real read speech: LibriVox, Kennedy, the MIT licence, LibriVox again.
    const talk: Recording[] = [
      ...librivox,
      jfk!,
      ...recordings.filter((r) => r.name === 'mit-licence-en'),
      ...librivox.slice(0, 2),
    ];
    const joined = await joinRecordings(talk, path.join(dir, 'talk.wav'), [900, 1400, 700]);
    reference = joined.reference;
    video = await makeTestVideo(path.join(dir, 'talk.mp4'), { audio: joined.file });
    const common = {
      DATABASE_URL: scratch.url,
      REALTIME_BUS: 'postgres',
      // One data folder stands in for the shared bucket of a real deployment.
      DATA_DIR: path.join(dir, 'data'),
      WEB_DIST_DIR: path.join(dir, 'no-web'),
      APP_SECRET: 'three workers share one secret for links',
      TASK_LEASE_MS: '4000',
      ASR_CHUNK_SECONDS: '12',
      // One Whisper process per worker: a worker holds one chunk at a time.
      ASR_PROCESSES: '1',
      ASR_THREADS: '1',
    };
    api = await spawnServer({ ...common, ROLES: 'api' });
    for (let i = 0; i < 3; i++) workers.push(await spawnServer({ ...common, ROLES: 'api,worker' }));
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  }, 240_000);

  afterAll(async () => {
    await db?.end();
    for (const server of [api, ...workers]) await server?.kill('SIGKILL');
    await scratch?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('shares the chunks out, redoes a killed worker’s chunk once, and merges them in order', async () => {
    const call = async (method: string, route: string, token?: string, body?: unknown) => {
      const response = await fetch(`${api.url}${route}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body instanceof FormData || body === undefined
            ? {}
            : { 'content-type': 'application/json' }),
        },
        body:
          body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as { code: number | string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON replies of many shapes
    };
    const signup = await call('POST', '/api/auth/signup', undefined, {
      email: 'chunks@example.com',
      password: 'three workers, one task',
      username: 'chunks',
    });
    const token = signup.data.token as string;
    const form = new FormData();
    form.append('file', new Blob([await fs.readFile(video)]), 'A reading.mp4');
    const uploaded = await call('POST', '/api/upload', token, form);
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
    const started = await call(
      'POST',
      '/api/highlight_moment/task/start?url_source=upload&source_lang=auto',
      token,
      uploaded.data,
    );
    expect(started.code, JSON.stringify(started)).toBe(0);
    const taskId = started.data.id as string;

    // Kill the first worker seen transcribing a chunk, while it is at it.
    const chunks = () =>
      db
        .query<ChunkRow>(
          'SELECT idx, status, attempts, worker, start_ms, end_ms FROM asr_chunks WHERE task_id = $1 ORDER BY idx',
          [taskId],
        )
        .then((result) => result.rows);
    const pidOf = (worker: string | null) => Number(worker?.split(':').at(-1));
    let killed: { pid: number; idx: number } | undefined;
    const deadline = Date.now() + 300_000;
    while (!killed) {
      if (Date.now() > deadline)
        throw new Error(`no chunk was seen running: ${JSON.stringify(await chunks())}`);
      const running = (await chunks()).find((row) => row.status === 'RUNNING');
      const victim = workers.find((w) => w.child.pid === pidOf(running?.worker ?? null));
      if (running && victim) {
        await victim.kill('SIGKILL');
        killed = { pid: victim.child.pid!, idx: running.idx };
      } else {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    let task: { status: string; error_reason: string | null } | undefined;
    while (Date.now() < deadline) {
      task = (await call('GET', `/api/highlight_moment/task?id=${taskId}`, token)).data;
      if (task?.status === 'DONE' || task?.status === 'ERROR') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(task?.error_reason ?? null).toBeNull();
    expect(task?.status).toBe('DONE');

    const rows = await chunks();
    expect(rows.length, 'about 80 s in chunks of about 12 s').toBeGreaterThanOrEqual(5);
    expect(rows.every((row) => row.status === 'DONE')).toBe(true);
    const redone = rows.find((row) => row.idx === killed!.idx)!;
    expect(redone.attempts, 'the killed worker’s chunk was done again, once').toBe(2);
    expect(pidOf(redone.worker)).not.toBe(killed.pid);
    expect(rows.filter((row) => row.idx !== killed!.idx).every((row) => row.attempts === 1)).toBe(
      true,
    );
    const takers = new Set(rows.map((row) => row.worker));
    expect(takers.size, `chunks taken by ${[...takers].join(', ')}`).toBeGreaterThanOrEqual(2);
    // Contiguous spans from the start.
    rows.forEach((row, i) => expect(row.start_ms).toBe(i === 0 ? 0 : rows[i - 1]!.end_ms));

    const stored = await db.query<{
      segments: { text: string; words: { text: string; startMs: number; endMs: number }[] }[];
      language: string;
    }>('SELECT segments, language FROM transcripts WHERE task_id = $1', [taskId]);
    const transcript = stored.rows[0]!;
    expect(transcript.language).toBe('en');
    const words = transcript.segments.flatMap((segment) => segment.words);
    let previousEnd = 0;
    for (const word of words) {
      expect(word.startMs, `"${word.text}" in order`).toBeGreaterThanOrEqual(previousEnd);
      expect(word.endMs).toBeGreaterThan(word.startMs);
      previousEnd = word.endMs;
    }
    expect(previousEnd, 'word times run on across the chunks').toBeGreaterThan(rows.at(-2)!.end_ms);
    const heard = transcript.segments.map((segment) => segment.text).join(' ');
    const wer = wordErrorRate(reference, heard);
    console.info(
      `[asr-chunks] ${rows.length} chunks over ${takers.size} workers, chunk ${killed.idx} redone after kill -9, WER ${(wer * 100).toFixed(1)}%`,
    );
    expect(wer).toBeLessThan(0.15);
  }, 600_000);
});
