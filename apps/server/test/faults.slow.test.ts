/**
 * Fault tests on real server processes and real tools, over loopback only:
 * - kill -9 of the server while a task downloads, while it finds moments (waiting on a slow LLM
 *   judge), and while an export renders: the restarted server resumes the work, finishes it and
 *   charges it once (kill -9 during transcription is restart.slow.test.ts);
 * - after each restart no tool (yt-dlp, ffmpeg) the killed server had started is left running;
 * - yt-dlp, ffprobe or ffmpeg missing: the task ends ERROR with a reason naming the tool, refunded.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { startOpenAIStubServer } from '@moments/ai/llm/testing';
import { runFfprobe } from '@moments/media/ffmpeg';
import { hasYtDlp } from '@moments/media/ingest';
import {
  makeTestVideo,
  serveFiles,
  synthesizeSpeech,
  type ServedFiles,
} from '@moments/media/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './support/process.js';
import {
  entitlement,
  signUp,
  sleep,
  startLinkTask,
  waitFor,
  waitForTaskEnd,
} from './support/remote.js';

const runs = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const hasFfmpeg = runs('ffmpeg', ['-version']) && runs('ffprobe', ['-version']);
const hasEspeak = runs('espeak-ng', ['--version']);
const asr = fasterWhisperAvailability();

const mediaTools = [
  !hasFfmpeg && 'ffmpeg and ffprobe',
  !hasEspeak && 'espeak-ng',
  !hasYtDlp() && 'yt-dlp',
].filter(Boolean);
const pipelineTools = [
  ...mediaTools,
  !asr.available && `the speech model (${asr.reason ?? 'scripts/setup.sh'})`,
].filter(Boolean);
if (pipelineTools.length > 0)
  console.warn(
    `Skipping the kill -9 fault tests: missing ${pipelineTools.join(', ')} (scripts/setup.sh)`,
  );
if (mediaTools.length > 0)
  console.warn(
    `Skipping the missing-tool fault tests: missing ${mediaTools.join(', ')} (scripts/setup.sh)`,
  );

const SHORT_SPEECH =
  'Good morning. The bakery opens at seven. Fresh bread is ready before eight every day.';

/** About forty seconds of talk around a story, so moment finding has a clear moment to pick. */
const TALK = `Hello everyone, and thanks for joining us today. The meetings will stay on Tuesday evenings at seven.
Now I want to tell you a story about my first marathon. I trained for six months and I felt ready.
On race day I started way too fast, because everybody around me was sprinting.
By mile twenty my legs were completely gone, and I was walking.
Then a tiny old woman in a pink tutu jogged past me, smiling.
She turned around and shouted, you can do it, honey, I am ninety one!
I laughed so hard that I started running again, and I finished the race.
That is when I learned that pride is a terrible fuel, but laughter is the best one.
Thank you all for coming, and see you on Tuesday.`;

interface ToolRecord {
  pid: number;
  owner: number;
  command: string;
}

/** The live tool process groups a server recorded in DATA_DIR/procs. */
async function toolRecords(dataDir: string): Promise<ToolRecord[]> {
  const folder = path.join(dataDir, 'procs');
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const records: ToolRecord[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json'))) {
    const text = await fs.readFile(path.join(folder, name), 'utf8').catch(() => undefined);
    if (text) records.push(JSON.parse(text) as ToolRecord);
  }
  return records;
}

/** Whether `pid` is a running process (a zombie waiting for its reaper does not count). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S ...": the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * After a restart on the same DATA_DIR: none of the tools the killed server had running is left
 * (the new server stops them at start, before it listens), and their records are gone.
 */
async function expectToolsOfKilledServerGone(
  dataDir: string,
  killed: { owner: number; records: ToolRecord[] },
) {
  await waitFor(
    `tools of the killed server still running: ${JSON.stringify(killed.records)}`,
    5_000,
    () => (killed.records.some((record) => isRunning(record.pid)) ? undefined : true),
  );
  const left = (await toolRecords(dataDir)).filter((record) => record.owner === killed.owner);
  expect(left).toEqual([]);
}

interface ThrottledFile {
  url: string;
  /** Body bytes sent so far, over all requests. */
  bytesSent(): number;
  /** Responses whose body is being sent right now. */
  streaming(): number;
  close(): Promise<void>;
}

/**
 * Serves one file on 127.0.0.1 slowly: `chunkBytes` every `delayMs`, with byte ranges, so a
 * download of it lasts a known while.
 */
async function serveThrottled(
  file: string,
  chunkBytes: number,
  delayMs: number,
): Promise<ThrottledFile> {
  const data = await fs.readFile(file);
  const name = `/${path.basename(file)}`;
  let sent = 0;
  let active = 0;
  const server = http.createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== name) {
      response.writeHead(404).end();
      return;
    }
    let start = 0;
    let end = data.length - 1;
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (range?.[1]) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(end, Number(range[2]));
    }
    if (start > end) {
      response.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
      return;
    }
    response.writeHead(range ? 206 : 200, {
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${data.length}` } : {}),
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    let closed = false;
    response.on('close', () => (closed = true));
    active++;
    void (async () => {
      try {
        for (let at = start; at <= end && !closed; at += chunkBytes) {
          const chunk = data.subarray(at, Math.min(at + chunkBytes, end + 1));
          response.write(chunk);
          sent += chunk.length;
          await sleep(delayMs);
        }
        if (!closed) response.end();
      } finally {
        active--;
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${name}`,
    bytesSent: () => sent,
    streaming: () => active,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(pipelineTools.length > 0)('kill -9 of the server', () => {
  let workDir: string;
  let server: ServerProcess | undefined;
  const env = (name: string) => ({
    DATA_DIR: path.join(workDir, name),
    MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
    TASK_LEASE_MS: '4000',
    WEB_DIST_DIR: path.join(workDir, 'no-web'),
  });

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-faults-'));
  });
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = undefined;
  });
  afterAll(async () => {
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it('during the download: resumed, DONE, charged once, yt-dlp of the dead server stopped', async () => {
    const clip = path.join(workDir, 'clip.mp4');
    await makeTestVideo(clip, {
      audio: await synthesizeSpeech(SHORT_SPEECH, path.join(workDir, 'clip.wav')),
    });
    // About ten seconds per full download, whatever the clip's size.
    const size = (await fs.stat(clip)).size;
    const slow = await serveThrottled(clip, Math.ceil(size / 100), 100);
    try {
      const config = env('download');
      server = await spawnServer(config);
      const call = await signUp(() => server!, 'download-crash');
      const taskId = await startLinkTask(call, slow.url);

      // Wait until yt-dlp is receiving the body, then kill without any chance to clean up.
      const records = await waitFor('yt-dlp downloading', 120_000, async () => {
        const task = await call('GET', `/api/highlight_moment/task?id=${taskId}`);
        expect(task.status, server!.output()).not.toBe('ERROR');
        if (task.stage !== 'downloading' || slow.streaming() === 0 || slow.bytesSent() === 0)
          return undefined;
        const live = await toolRecords(config.DATA_DIR);
        return live.some((record) => record.command === 'yt-dlp') ? live : undefined;
      });
      const owner = server.child.pid!;
      expect(records.every((record) => record.owner === owner)).toBe(true);
      expect(records.some((record) => isRunning(record.pid))).toBe(true);
      await server.kill('SIGKILL');

      server = await spawnServer(config);
      await expectToolsOfKilledServerGone(config.DATA_DIR, { owner, records });

      const task = await waitForTaskEnd(call, taskId, 240_000);
      expect(task.error_reason, server.output()).toBeNull();
      expect(task.status).toBe('DONE');
      const transcript = await call('GET', `/api/highlight_moment/task/transcript?id=${taskId}`);
      expect(transcript.segments.length).toBeGreaterThan(0);
      // Charged once although the download ran twice.
      expect(task.cost_credits).toBeGreaterThan(0);
      expect((await entitlement(call, 'CREDIT')).usage).toBe(task.cost_credits);
    } finally {
      await slow.close();
    }
  }, 300_000);

  it('while finding moments: resumed after the transcript, DONE, charged once', async () => {
    const mediaDir = path.join(workDir, 'analysis');
    await fs.mkdir(mediaDir, { recursive: true });
    const wav = await synthesizeSpeech(TALK.replace(/\s+/g, ' '), path.join(workDir, 'judge.wav'));
    await makeTestVideo(path.join(mediaDir, 'talk.mp4'), { audio: wav });
    const served: ServedFiles = await serveFiles(mediaDir);
    // A stand-in LLM judge that never answers: the run waits in the analysing stage until killed.
    const judge = await startOpenAIStubServer({ kind: 'hang' });
    try {
      const config = {
        ...env('analysis'),
        LLM_BASE_URL: judge.baseUrl,
        LLM_MODEL: 'stand-in',
        LLM_TIMEOUT_MS: '120000',
      };
      server = await spawnServer(config);
      const call = await signUp(() => server!, 'analysis-crash');
      const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
      await waitFor('the judge asked about the talk', 150_000, async () => {
        const task = await call('GET', `/api/highlight_moment/task?id=${taskId}`);
        expect(task.status, server!.output()).not.toBe('ERROR');
        return task.stage === 'analysing' && judge.requests.length > 0 ? true : undefined;
      });
      const transcript = await call('GET', `/api/highlight_moment/task/transcript?id=${taskId}`);
      await server.kill('SIGKILL');

      // The judge now fails outright: the resumed run falls back to the offline judge.
      judge.setBehaviour({ kind: 'status', status: 503, body: 'overloaded' });
      server = await spawnServer(config);
      const task = await waitForTaskEnd(call, taskId, 240_000);
      expect(task.error_reason, server.output()).toBeNull();
      expect(task.status).toBe('DONE');
      // Resumed after the stored transcript, not transcribed again into something else.
      expect(await call('GET', `/api/highlight_moment/task/transcript?id=${taskId}`)).toEqual(
        transcript,
      );
      const moments = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);
      expect(moments.length, 'moments found in the talk').toBeGreaterThan(0);
      expect(task.cost_credits).toBeGreaterThan(0);
      expect((await entitlement(call, 'CREDIT')).usage).toBe(task.cost_credits);
    } finally {
      await judge.close();
      await served.close();
    }
  }, 360_000);

  it('during an export render: resumed, DONE, playable, one export counted, ffmpeg stopped', async () => {
    // 1080p source with ~40 s of speech: the export of a moment renders for several seconds.
    const mediaDir = path.join(workDir, 'served');
    await fs.mkdir(mediaDir, { recursive: true });
    const wav = await synthesizeSpeech(TALK.replace(/\s+/g, ' '), path.join(workDir, 'talk.wav'));
    await makeTestVideo(path.join(mediaDir, 'talk.mp4'), { audio: wav, width: 1920, height: 1080 });
    const served: ServedFiles = await serveFiles(mediaDir);
    try {
      const config = env('render');
      server = await spawnServer(config);
      const call = await signUp(() => server!, 'render-crash');
      const taskId = await startLinkTask(call, `${served.url}/talk.mp4`);
      const task = await waitForTaskEnd(call, taskId, 150_000);
      expect(task.error_reason, server.output()).toBeNull();
      const moments = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`);
      expect(moments.length, 'moments found in the talk').toBeGreaterThan(0);
      const credits = (await entitlement(call, 'CREDIT')).usage;

      const started = await call('POST', '/api/job', {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: moments[0].id,
        options: { aspect: '9:16', quality: '1080p', template: 'karaoke', layout: 'blur_fit' },
      });
      const jobId = started.job_id as string;

      // Rendering is the 30-98 % band: kill while ffmpeg encodes.
      const records = await waitFor('the export rendering', 120_000, async () => {
        const job = await call('GET', `/api/job/${jobId}`);
        expect(job.status, `rendered before it could be killed: ${server!.output()}`).toBe(
          'IN_PROGRESS',
        );
        if (!(job.progress > 30)) return undefined;
        const live = await toolRecords(config.DATA_DIR);
        return live.some((record) => record.command === 'ffmpeg') ? live : undefined;
      });
      const owner = server.child.pid!;
      await server.kill('SIGKILL');

      server = await spawnServer(config);
      await expectToolsOfKilledServerGone(config.DATA_DIR, { owner, records });

      const job = await waitFor(
        `export ${jobId} to end`,
        240_000,
        async () => {
          const current = await call('GET', `/api/job/${jobId}`);
          return current.status === 'IN_PROGRESS' ? undefined : current;
        },
        500,
      );
      expect(job.error_reason, server.output()).toBeNull();
      expect(job).toMatchObject({ status: 'DONE', progress: 100 });

      // The file plays: ffprobe reads a 1080x1920 H.264 video as long as the clip.
      const response = await fetch(new URL(job.file_url, server.url));
      expect(response.status).toBe(200);
      const video = path.join(workDir, 'export.mp4');
      await fs.writeFile(video, Buffer.from(await response.arrayBuffer()));
      const probe = JSON.parse(
        await runFfprobe(['-v', 'error', '-show_streams', '-show_format', '-of', 'json', video]),
      );
      const stream = probe.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
      expect(stream).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920 });
      expect(probe.streams.some((s: { codec_type: string }) => s.codec_type === 'audio')).toBe(
        true,
      );
      expect(Math.abs(Number(probe.format.duration) * 1000 - job.duration_ms)).toBeLessThan(500);

      // One export counted although it rendered twice; no credit spent on it.
      expect((await entitlement(call, 'CANVAS_EXPORT')).usage).toBe(1);
      expect((await entitlement(call, 'CREDIT')).usage).toBe(credits);
    } finally {
      await served.close();
    }
  }, 300_000);
});

describe.skipIf(mediaTools.length > 0)('a missing tool', () => {
  let workDir: string;
  let served: ServedFiles;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-missing-tool-'));
    const mediaDir = path.join(workDir, 'served');
    await fs.mkdir(mediaDir);
    await makeTestVideo(path.join(mediaDir, 'clip.mp4'), {
      audio: await synthesizeSpeech(SHORT_SPEECH, path.join(workDir, 'clip.wav')),
    });
    served = await serveFiles(mediaDir);
  });
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = undefined;
  });
  afterAll(async () => {
    await served?.close();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it.each<{ tool: string; env: Record<string, string> }>([
    // yt-dlp fails the download, ffprobe the probing, ffmpeg the audio extraction (charged by
    // then): each is said to be missing, not to have failed on the video.
    { tool: 'yt-dlp', env: { YTDLP_PATH: '/nonexistent/yt-dlp' } },
    { tool: 'ffprobe', env: { FFPROBE_PATH: '/nonexistent/ffprobe' } },
    { tool: 'ffmpeg', env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } },
  ])(
    '$tool: the task ends ERROR naming it, refunded',
    async ({ tool, env }) => {
      server = await spawnServer({
        DATA_DIR: path.join(workDir, `no-${tool}`),
        MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
        WEB_DIST_DIR: path.join(workDir, 'no-web'),
        ...env,
      });
      const call = await signUp(() => server!, `no-${tool}`);
      const taskId = await startLinkTask(call, `${served.url}/clip.mp4`);
      const task = await waitForTaskEnd(call, taskId, 120_000);
      expect(task.status, server.output()).toBe('ERROR');
      expect(task.error_reason).toContain(`${tool} could not be started (/nonexistent/${tool})`);
      expect(task.error_reason).not.toMatch(/something went wrong/i);
      expect(task.cost_credits).toBe(0);
      expect((await entitlement(call, 'CREDIT')).usage).toBe(0);
    },
    180_000,
  );
});
