// End to end, upload to transcript: a 10-minute video (the real English recordings of
// ../shared/media on a test pattern) is uploaded through POST /api/upload, a task is started on it,
// and the clock stops when the task is DONE (download-free path: upload, probe, transcribe, find
// moments). Runs the real server in-process on a temporary embedded database.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { sharedMediaDir } from '@moments/media/testing';
import { buildHttpApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/index.js';
import { createServices, startWorkers } from '../apps/server/src/services.js';

const TARGET_SECONDS = 600;

export default async function run(): Promise<void> {
  const media = sharedMediaDir();
  const asr = fasterWhisperAvailability();
  if (!asr.available) {
    console.log(`ingest: skipped (${asr.reason})`);
    return;
  }
  if (!media) {
    console.log('ingest: skipped (../shared/media is absent)');
    return;
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-ingest-bench-'));
  try {
    const video = path.join(dataDir, 'ten-minutes.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=25',
      '-i',
      path.join(media, 'jfk.flac'),
      '-i',
      path.join(media, 'multilingual-en-de.mp3'),
      '-filter_complex',
      '[1:a]aresample=44100[a];[2:a]atrim=0:29.5,aresample=44100[b];[a][b]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]',
      '-map',
      '0:v',
      '-map',
      '[out]',
      '-t',
      String(TARGET_SECONDS),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      video,
    ]);
    const config = loadConfig({
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    });
    const services = await createServices(config);
    const app = await buildHttpApp(config, services);
    await app.ready();
    await startWorkers(services);
    try {
      const signup = await app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email: 'bench@example.com', password: 'benchmark run', username: 'bench' },
      });
      const headers = { authorization: `Bearer ${signup.json().data.token}` };
      const boundary = 'benchboundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="talk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
        ),
        await fs.readFile(video),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const started = performance.now();
      const uploaded = await app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      const uploadedAt = performance.now();
      const task = await app.inject({
        method: 'POST',
        url: '/api/highlight_moment/task/start?url_source=upload&source_lang=auto',
        headers,
        payload: uploaded.json().data,
      });
      const id = task.json().data.id as string;
      let status = 'START';
      let stageTimes = '';
      let lastStage = '';
      while (status !== 'DONE' && status !== 'ERROR') {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const current = (
          await app.inject({ method: 'GET', url: `/api/highlight_moment/task?id=${id}`, headers })
        ).json().data;
        status = current.status;
        if (current.stage !== lastStage) {
          lastStage = current.stage;
          stageTimes += ` ${current.stage}@${((performance.now() - started) / 1000).toFixed(1)}s`;
        }
      }
      const total = (performance.now() - started) / 1000;
      console.log(
        `ingest: model whisper-base (faster-whisper int8, ${os.cpus().length} cores), ${TARGET_SECONDS} s video, ${(payload.length / 1e6).toFixed(1)} MB`,
      );
      console.log(
        `ingest: upload ${((uploadedAt - started) / 1000).toFixed(1)} s; upload to ${status} ${total.toFixed(1)} s = ${(TARGET_SECONDS / total).toFixed(2)}x real time`,
      );
      console.log(`ingest: stages${stageTimes}`);
    } finally {
      await app.close();
      await services.close();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
