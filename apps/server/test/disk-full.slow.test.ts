/**
 * The disk filling up under an upload and under an export render: the user
 * gets a clear error (507 DISK_FULL, or an export that ends ERROR saying the disk is full),
 * partial files are removed, nothing is charged, and once space is freed the same calls work.
 *
 * The server runs in its own mount namespace with DATA_DIR on a small tmpfs, so only its disk is
 * full; the test fills and frees that disk through /proc/<pid>/root. The database is PostgreSQL
 * (a scratch database on the shared server), outside the full disk.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { ERROR_CODES } from '@moments/contract';
import {
  makeTestVideo,
  serveFiles,
  synthesizeSpeech,
  type ServedFiles,
} from '@moments/media/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { spawnServer, type ServerProcess } from './support/process.js';
import { entitlement, signUp, startLinkTask, waitFor, waitForTaskEnd } from './support/remote.js';

const DISK = '160m';
/** Mounts a tmpfs of $MOMENTS_DISK_SIZE on $DATA_DIR in a new mount namespace, then execs. */
const SMALL_DISK = [
  'unshare',
  '--mount',
  '--propagation',
  'private',
  'sh',
  '-c',
  'mount -t tmpfs -o size="$MOMENTS_DISK_SIZE" tmpfs "$DATA_DIR" && exec "$@"',
  'small-disk',
];

function smallDiskUnavailable(): string | null {
  const probe = spawnSync(
    'unshare',
    ['--mount', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$0"', os.tmpdir()],
    { stdio: 'ignore' },
  );
  return probe.status === 0
    ? null
    : 'cannot mount a tmpfs in a private mount namespace (needs root or unprivileged user namespaces)';
}

const asr = fasterWhisperAvailability();
const missing = [
  smallDiskUnavailable(),
  spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0 && 'ffmpeg',
  !asr.available && `the speech model (${asr.reason ?? 'scripts/setup.sh'})`,
].filter(Boolean);
const skipReason = missing.length ? `Skipping the disk-full tests: ${missing.join(', ')}` : null;
if (skipReason) console.warn(skipReason);

const TALK = `Last winter our heating broke on the coldest night of the year.
My father decided we would all sleep in the kitchen, next to the oven, like a camping trip.
He told stories until two in the morning about the farm where he grew up.
The best one was about a goat that learned to open the gate and visited the neighbours every Sunday.
We laughed so much that nobody noticed the cold any more.
The heating was fixed the next day, but we still talk about the kitchen night.`;

describe.skipIf(skipReason !== null)('a full disk', () => {
  let workDir: string;
  let served: ServedFiles;
  let server: ServerProcess;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string;
  let dataDir: string;
  /** DATA_DIR as the server sees it (its tmpfs), reached from outside its namespace. */
  let disk: string;
  let upload: Buffer;

  const filler = () => path.join(disk, 'filler');
  const freeBytes = async () => {
    const stats = await fs.statfs(disk);
    return stats.bavail * stats.bsize;
  };
  /** Fills the server's disk until only `leftBytes` are free. */
  async function fillDisk(leftBytes: number) {
    await fs.rm(filler(), { force: true });
    await fs.writeFile(filler(), Buffer.alloc(Math.max(0, (await freeBytes()) - leftBytes)));
  }
  /** What the run folders and stored files hold, without the filler. */
  async function storedFiles(): Promise<string[]> {
    const entries = await fs.readdir(disk, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name !== 'filler')
      .map((entry) => path.relative(disk, path.join(entry.parentPath, entry.name)))
      .filter((file) => /^(tmp|files|tus)\//.test(file))
      .sort();
  }

  /**
   * Waits until the background framing analysis queued when a task ends DONE has run: its work
   * folder under tmp/ would otherwise come and go while the test compares the disk's files.
   */
  async function backgroundAnalysisDone() {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await waitFor('the background framing analysis to finish', 180_000, async () => {
        const { rows } = await client.query<{ queued: number; pending: number }>(
          `SELECT count(*)::int AS queued,
                  count(*) FILTER (WHERE state::text IN ('created', 'retry', 'active'))::int AS pending
             FROM pgboss.job WHERE name = 'framing-prepare'`,
        );
        return rows[0]!.queued > 0 && rows[0]!.pending === 0 ? true : undefined;
      });
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    if (!(await postgresReachable())) {
      // CI sets REQUIRE_POSTGRES=1: there a missing server is a failure, not a skip.
      throw new Error('PostgreSQL is not reachable: the disk-full tests need it for their data');
    }
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-disk-full-'));
    const mediaDir = path.join(workDir, 'served');
    await fs.mkdir(mediaDir);
    const wav = await synthesizeSpeech(TALK.replace(/\s+/g, ' '), path.join(workDir, 'talk.wav'));
    await makeTestVideo(path.join(mediaDir, 'talk.mp4'), { audio: wav, width: 1280, height: 720 });
    upload = await fs.readFile(path.join(mediaDir, 'talk.mp4'));
    served = await serveFiles(mediaDir);
    const database = await createScratchPostgres();
    dropDatabase = database.drop;
    databaseUrl = database.url;
    dataDir = path.join(workDir, 'data');
    await fs.mkdir(dataDir);
    server = await spawnServer(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        MOMENTS_DISK_SIZE: DISK,
        MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
        WEB_DIST_DIR: path.join(workDir, 'no-web'),
      },
      { launcher: SMALL_DISK },
    );
    disk = `/proc/${server.child.pid}/root${dataDir}`;
  }, 180_000);
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await served?.close();
    await dropDatabase?.();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it('refuses an upload with 507 DISK_FULL, keeps no part of it, and takes it once space is freed', async () => {
    const call = await signUp(() => server, 'full-upload');
    const { token } = call;
    const send = () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(upload)], { type: 'video/mp4' }), 'talk.mp4');
      return fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    const before = await storedFiles();
    const headroom = 64 * 1024;
    expect(upload.length).toBeGreaterThan(4 * headroom);
    await fillDisk(headroom);

    const refused = await send();
    expect(refused.status, server.output()).toBe(507);
    expect(((await refused.json()) as { code: string }).code).toBe(ERROR_CODES.DISK_FULL);
    // The partial file is gone: the space it took is free again.
    expect(await storedFiles()).toEqual(before);
    expect(await freeBytes()).toBeGreaterThanOrEqual(headroom - 16 * 1024);

    await fs.rm(filler());
    const accepted = await send();
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect(
      ((await accepted.json()) as { data: { duration: number } }).data.duration,
    ).toBeGreaterThan(0);
  }, 120_000);

  it('ends an export ERROR saying the disk is full, charges nothing, removes its files, and renders once freed', async () => {
    const call = await signUp(() => server, 'full-render');
    const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
    const task = await waitForTaskEnd(call, taskId, 180_000);
    expect(task.error_reason, server.output()).toBeNull();
    const moments = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);
    expect(moments.length, 'moments found in the talk').toBeGreaterThan(0);
    await backgroundAnalysisDone();
    const credits = (await entitlement(call, 'CREDIT')).usage;
    const exportMoment = async () => {
      const started = await call('POST', '/api/job', {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: moments[0].id,
        options: { aspect: '9:16', quality: '720p', template: 'karaoke', layout: 'blur_fit' },
      });
      return waitFor(
        'the export to end',
        180_000,
        async () => {
          const job = await call('GET', `/api/job/${started.job_id}`);
          return job.status === 'IN_PROGRESS' ? undefined : job;
        },
        500,
      );
    };

    const before = await storedFiles();
    await fillDisk(64 * 1024);
    const failed = await exportMoment();
    expect(failed.status, server.output()).toBe('ERROR');
    expect(failed.error_reason).toMatch(/ran out of disk space/);
    expect(failed.file_url ?? null).toBeNull();
    expect(await storedFiles()).toEqual(before);
    expect((await entitlement(call, 'CANVAS_EXPORT')).usage).toBe(0);
    expect((await entitlement(call, 'CREDIT')).usage).toBe(credits);

    await fs.rm(filler());
    const rendered = await exportMoment();
    expect(rendered.error_reason, server.output()).toBeNull();
    expect(rendered.status).toBe('DONE');
    expect((await entitlement(call, 'CANVAS_EXPORT')).usage).toBe(1);
  }, 300_000);
});
