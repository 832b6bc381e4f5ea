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
import { startBenchServer, uploadAndRunTask } from './bench-server';

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
    const server = await startBenchServer(dataDir, 'bench');
    try {
      const {
        status,
        stages,
        uploadSeconds,
        totalSeconds: total,
        payloadBytes,
      } = await uploadAndRunTask(server, video);
      console.log(
        `ingest: model whisper-base (faster-whisper int8, ${os.cpus().length} cores), ${TARGET_SECONDS} s video, ${(payloadBytes / 1e6).toFixed(1)} MB`,
      );
      console.log(
        `ingest: upload ${uploadSeconds.toFixed(1)} s; upload to ${status} ${total.toFixed(1)} s = ${(TARGET_SECONDS / total).toFixed(2)}x real time`,
      );
      console.log(`ingest: stages ${stages}`);
    } finally {
      await server.close();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
