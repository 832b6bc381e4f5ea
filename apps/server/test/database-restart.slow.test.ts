/**
 * PostgreSQL restarted under a running API process: the process stays up,
 * requests made while the database is down fail with 503 DATABASE_UNAVAILABLE (not a crash, not
 * a generic 500), and once it is back the same process answers again, with nothing lost and the
 * job queue working. Runs on a private cluster, so the shared server other tests use is untouched.
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from './support/private-postgres.js';
import { spawnServer, type ServerProcess } from './support/process.js';
import { signUp, startLinkTask, waitFor, waitForTaskEnd } from './support/remote.js';

const asr = fasterWhisperAvailability();
const missing = [
  privatePostgresUnavailable(),
  spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0 && 'ffmpeg',
  !asr.available && `the speech model (${asr.reason ?? 'scripts/setup.sh'})`,
].filter(Boolean);
const skipReason = missing.length
  ? `Skipping the PostgreSQL restart test: ${missing.join(', ')}`
  : null;
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason !== null)('PostgreSQL restarted under the API', () => {
  let workDir: string;
  let postgres: PrivatePostgres;
  let served: ServedFiles;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-pg-restart-'));
    const mediaDir = path.join(workDir, 'served');
    await fs.mkdir(mediaDir);
    const speech = 'The river was quiet that morning. We rowed out before the sun came up.';
    await makeTestVideo(path.join(mediaDir, 'clip.mp4'), {
      audio: await synthesizeSpeech(speech, path.join(workDir, 'clip.wav')),
    });
    [postgres, served] = await Promise.all([startPrivatePostgres(), serveFiles(mediaDir)]);
    server = await spawnServer({
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(workDir, 'data'),
      MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
      WEB_DIST_DIR: path.join(workDir, 'no-web'),
    });
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await served?.close();
    await postgres?.destroy();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it('answers 503 DATABASE_UNAVAILABLE while it is down, then serves again with nothing lost', async () => {
    const call = await signUp(() => server!, 'restart');
    const first = await startLinkTask(call, `${served.url}/clip.mp4`);
    const before = await waitForTaskEnd(call, first, 120_000);
    expect(before.status, server!.output()).toBe('DONE');
    const transcriptBefore = await call('GET', `/api/highlight_moment/task/transcript?id=${first}`);

    const credentials = { email: 'restart@example.com', password: 'faults are expected' };
    const request = (method: string, route: string, body?: unknown, token?: string) =>
      fetch(`${server!.url}${route}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const signedIn = (await request('POST', '/api/auth/login', credentials)).json();
    const { token } = ((await signedIn) as { data: { token: string } }).data;

    await postgres.stop();
    // Reads and writes both refuse clearly; the process is still there to say so.
    for (const reply of [
      await request('GET', '/api/user/info', undefined, token),
      await request('POST', '/api/auth/login', credentials),
      await request('POST', '/sys/coming_soon', { types: ['teams'], email: 'later@example.com' }),
    ]) {
      expect(reply.status, server!.output()).toBe(503);
      expect(reply.headers.get('retry-after')).toBe('5');
      expect(((await reply.json()) as { code: string }).code).toBe(
        ERROR_CODES.DATABASE_UNAVAILABLE,
      );
    }
    expect(server!.child.exitCode, server!.output()).toBeNull();

    await postgres.start();
    // The same process reconnects on its own: the user signs in again.
    const login = await waitFor('the API to reach PostgreSQL again', 30_000, async () => {
      const reply = await request('POST', '/api/auth/login', credentials);
      return reply.status === 200 ? reply : undefined;
    });
    expect(((await login.json()) as { data: { token: string } }).data.token).toBeTruthy();
    expect(server!.child.exitCode).toBeNull();

    // Nothing was lost: the finished task and its transcript are as they were.
    const after = await call('GET', `/api/highlight_moment/task?id=${first}`);
    expect(after).toMatchObject({ id: first, status: 'DONE' });
    expect(await call('GET', `/api/highlight_moment/task/transcript?id=${first}`)).toEqual(
      transcriptBefore,
    );

    // The job queue works again: a new task runs to the end on the same process.
    const second = await startLinkTask(call, `${served.url}/clip.mp4`);
    const done = await waitForTaskEnd(call, second, 120_000);
    expect(done.error_reason, server!.output()).toBeNull();
    expect(done.status).toBe('DONE');
  }, 300_000);
});
