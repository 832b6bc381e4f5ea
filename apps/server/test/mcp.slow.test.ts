/**
 * An agent's whole walk through the MCP server with the real tools: the official SDK's client
 * connects to /mcp with a token, a video uploaded through the typed client is started as a task,
 * the agent waits for DONE, lists the moments, exports one and downloads an MP4 that ffprobe reads
 * back at the asked size. Transcription is a local stand-in for a remote endpoint (ASR_BASE_URL):
 * what is said does not matter here, Whisper's minute of CPU would only slow the test down.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMomentsClient, unwrap } from '@moments/client';
import { ExportResult, MomentList, Task } from '@moments/contract';
import { probeMedia } from '@moments/media/probe';
import { makeTestVideo } from '@moments/media/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { openPglite } from './support/databases.js';
import { startTranscriptionStandIn, type TranscriptionStandIn } from './support/stand-ins.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
if (!hasFfmpeg) console.warn('Skipping the MCP walk: ffmpeg is missing (setup.sh)');

const VIDEO_MS = 40_000;
const TALK = [
  'Most teams never measure how long their videos really hold attention.',
  'Here is the one number that changed how we edit every single clip.',
  'People decide in the first three seconds whether they keep watching.',
  'So we cut every intro and we open on the strongest sentence instead.',
  'Our completion rate doubled within a month and nothing else changed.',
  'Try it on your next upload and watch what happens to the retention graph.',
].join(' ');

let dir: string;
let video: string;
let transcriber: TranscriptionStandIn;
let t: TestApp;
let mcp: Client;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-mcp-'));
  video = await makeTestVideo(path.join(dir, 'talk.mp4'), { durationSec: VIDEO_MS / 1000 });
  transcriber = await startTranscriptionStandIn(TALK, VIDEO_MS);
  // The speech engine comes from the app's checked config: the stand-in's address.
  t = await startTestApp(
    await openPglite(),
    { ASR_BASE_URL: transcriber.baseUrl },
    { workers: true, listen: true },
  );
}, 180_000);

afterAll(async () => {
  await mcp?.close();
  await t?.close();
  await transcriber?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** A tool's structured output, parsed by its contract schema; fails the test on a tool error. */
async function tool<T>(schema: { parse(value: unknown): T }, name: string, args: object = {}) {
  const result = (await mcp.callTool({ name, arguments: { ...args } })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return schema.parse(result.structuredContent);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

it('starts a task on an uploaded video, waits, lists its moments, exports one and downloads it', async (ctx) => {
  if (!hasFfmpeg) return ctx.skip('ffmpeg is missing (setup.sh)');
  const user = await signUp(t.app, 'agent');
  const api = createMomentsClient({ baseUrl: t.url, token: user.token });
  const form = new FormData();
  form.append('file', new Blob([await fs.readFile(video)]), 'talk.mp4');
  const uploaded = await unwrap(
    api.POST('/api/upload', { body: { file: '' }, bodySerializer: () => form }),
  );
  const uploadId = uploaded.id;

  mcp = new Client({ name: 'moments-test-agent', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', t.url), {
      requestInit: { headers: { authorization: `Bearer ${user.token}` } },
    }),
  );

  const started = await tool(Task, 'start_task', { upload_id: uploadId, source_lang: 'en' });
  const task = await until(
    () => tool(Task, 'get_task', { task_id: started.id }),
    (read) => read.status === 'DONE' || read.status === 'ERROR',
    150_000,
  );
  expect(task.status, task.error_reason ?? '').toBe('DONE');

  const { moments } = await tool(MomentList, 'list_moments', { task_id: task.id });
  expect(moments.length).toBeGreaterThan(0);
  const moment = moments[0]!;

  // Four seconds at 720p: enough to prove the file, short to render on a loaded machine.
  const exported = await tool(ExportResult, 'export_clip', {
    moment_id: moment.id,
    aspect: '1:1',
    quality: '720p',
    template: 'karaoke',
    start_ms: moment.start,
    end_ms: moment.start + 4000,
    idempotency_key: `mcp-walk-${moment.id}`,
  });
  const job = await until(
    () => tool(ExportResult, 'get_export', { export_id: exported.job_id }),
    (read) => read.status !== 'IN_PROGRESS',
    150_000,
  );
  expect(job.status, job.error_reason ?? '').toBe('DONE');

  const download = await fetch(job.download_url!);
  expect(download.status).toBe(200);
  const file = path.join(dir, 'clip.mp4');
  await fs.writeFile(file, Buffer.from(await download.arrayBuffer()));
  const info = await probeMedia(file);
  expect({ width: info.width, height: info.height, video: info.hasVideo }).toEqual({
    width: 720,
    height: 720,
    video: true,
  });
  expect(info.durationMs).toBeGreaterThan(2500);
  expect(info.durationMs).toBeLessThan(6000);
}, 400_000);
