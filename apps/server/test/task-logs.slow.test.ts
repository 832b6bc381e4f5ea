/**
 * Logs can be followed: a failed task leaves a structured log line that
 * names the task, its user and why it failed, instead of `console.error('task failed
 * unexpectedly')` with no id. A real task over a served link, on PGlite, with the logger of the
 * process written to memory.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { createLogger } from '../src/logging.js';
import { signUp, startTestApp, waitForTask, type TestApp } from './support/app.js';

describe('task runs log with their ids', () => {
  let t: TestApp;
  let dir: string;
  let served: ServedFiles;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-logs-'));
    await fs.writeFile(path.join(dir, 'not-a-video.mp4'), 'plain text, no video\n'.repeat(100));
    served = await serveFiles(dir);
    const memory = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    t = await startTestApp(
      await openPglite(),
      { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' },
      { workers: true, log: createLogger('info', memory) },
    );
  });
  afterAll(async () => {
    await t?.close();
    await served?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a failed task logs its taskId, userId, stage and reason', async () => {
    const user = await signUp(t.app, 'logged');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct&source_lang=auto',
      headers: user.headers,
      payload: { url: `${served.url}/not-a-video.mp4` },
    });
    expect(started.statusCode, started.body).toBe(200);
    const taskId = started.json().data.id as string;
    const failed = await waitForTask(t.app, user.headers, taskId);
    expect(failed.status).toBe('ERROR');

    const ofTask = lines.filter((line) => line.taskId === taskId);
    expect(ofTask.map((line) => line.msg)).toContain('task run started');
    const failure = ofTask.find((line) => line.msg === 'task failed');
    expect(failure).toMatchObject({ taskId, userId: user.userId, reason: failed.error_reason });
    expect(typeof failure!.stage).toBe('string');
    // Request logs go to the same stream (one logger per process).
    expect(lines.some((line) => line.msg === 'request completed')).toBe(true);
  });
});
