/**
 * Stand-ins for what a server test should not wait on: a remote transcription service, and a
 * machine busy enough that a face analysis lasts as long as its span.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface TranscriptionStandIn {
  /** For ASR_BASE_URL. */
  baseUrl: string;
  /** Audio uploads received so far. */
  requests(): number;
  /** From now on, requests wait (a transcription under way) until `answer()`. */
  hold(): void;
  /** Answers the waiting requests, and later ones at once. */
  answer(): void;
  close(): Promise<void>;
}

/**
 * A stand-in for a remote OpenAI-compatible transcription service on 127.0.0.1: it reads the
 * uploaded audio and answers `text` as if spoken evenly over `durationMs` (verbose_json with word
 * times), at once. For tests about what happens after transcription, where Whisper's minute of
 * CPU would only slow them down.
 */
export async function startTranscriptionStandIn(
  text: string,
  durationMs: number,
): Promise<TranscriptionStandIn> {
  const words = text.split(/\s+/).filter(Boolean);
  const slot = durationMs / 1000 / words.length;
  const body = JSON.stringify({
    task: 'transcribe',
    language: 'english',
    duration: durationMs / 1000,
    text,
    words: words.map((word, index) => ({
      word,
      start: +(index * slot).toFixed(3),
      end: +(index * slot + slot * 0.8).toFixed(3),
    })),
  });
  let received = 0;
  let held: (() => void)[] | undefined;
  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST' || !request.url?.endsWith('/audio/transcriptions')) {
      response.writeHead(404).end('not found');
      return;
    }
    request.resume();
    request.on('end', () => {
      received++;
      const reply = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (held) held.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => received,
    hold: () => {
      held ??= [];
    },
    answer: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const reply of waiting) reply();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * FFMPEG_PATH for a spawned server: the real ffmpeg, but the face analysis's decode (raw rgb24
 * frames to a pipe) reads its input in real time (`-re`), as on a machine busy with other renders,
 * so an analysis lasts as long as its span and a test can act while it runs.
 */
export async function realTimeAnalysisFfmpeg(dir: string): Promise<string> {
  const real = spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim();
  const wrapper = path.join(dir, 'bin', 'ffmpeg');
  await fs.mkdir(path.dirname(wrapper), { recursive: true });
  await fs.writeFile(
    wrapper,
    `#!/bin/sh\ncase " $* " in *" rgb24 pipe:1 "*) exec ${real} -re "$@" ;; esac\nexec ${real} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}
