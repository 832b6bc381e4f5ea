// One long-lived faster-whisper process per slot, restarted when it dies, its
// memory bounded; and the fast English path (tiny.en) chosen by the detected language.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../wer';
import { FasterWhisperEngine, fasterWhisperAvailability } from './faster-whisper';
import { WhisperServer } from './whisper-server';
import { withWrittenWordsEngine } from './written-words';
import {
  SHARED_MEDIA_DIR,
  englishRecordings,
  joinRecordings,
  expectValidWordTimings,
  hasSharedMedia,
  transcriptText,
} from '../../test/support/speech';

const availability = fasterWhisperAvailability();
const englishModel = new FasterWhisperEngine().options.englishModelDir;
const hasEnglishModel = existsSync(join(englishModel, 'model.bin'));
if (!availability.available)
  console.warn(`[whisper-server tests] skipping: ${availability.reason}`);
if (!hasSharedMedia)
  console.warn(`[whisper-server tests] skipping: ${SHARED_MEDIA_DIR} (real recordings) is absent`);
if (!hasEnglishModel)
  console.warn(
    `[whisper-server tests] skipping: no English model in ${englishModel} (scripts/setup.sh)`,
  );

const JFK = join(SHARED_MEDIA_DIR, 'jfk.flac');
const JFK_REFERENCE =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const SLOW = 240_000;

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'moments-whisper-server-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe.skipIf(!availability.available || !hasSharedMedia || !hasEnglishModel)(
  'the long-lived faster-whisper process',
  () => {
    it(
      'detects English, hears it with the fast English model, and keeps one process for every file',
      async () => {
        const engine = new FasterWhisperEngine({ accuracy: 'fast', processes: 1 });
        try {
          const first = await engine.transcribe(JFK);
          const pid = engine.servers[0]!.pid;
          expect(pid).toBeDefined();
          const second = await engine.transcribe(JFK);
          expect(engine.servers[0]!.pid, 'the same process served both files').toBe(pid);
          expect(engine.servers[0]!.starts).toBe(1);
          for (const transcript of [first, second]) {
            expect(transcript.language).toBe('en');
            expect(transcript.engine).toBe('faster-whisper:whisper-tiny-en');
            expect(wordErrorRate(JFK_REFERENCE, transcriptText(transcript))).toBeLessThanOrEqual(
              0.1,
            );
            expectValidWordTimings(transcript);
          }
          // Whisper's own per-word probability comes through as each word's confidence.
          const confidences = first.segments.flatMap((s) => s.words.map((w) => w.confidence));
          expect(new Set(confidences).size).toBeGreaterThan(1);
        } finally {
          engine.close();
        }
      },
      SLOW,
    );

    it(
      'hears a minute and a half of joined real readings to the end on the fast English path',
      async (ctx) => {
        const recordings = englishRecordings();
        if (recordings.length < 8) return ctx.skip('needs pocketsphinx-testdata (LibriVox)');
        // The order that lost 18 s when tiny.en ended a batched clip early (before the repair).
        const joined = await joinRecordings(
          [...recordings].reverse(),
          join(workDir, 'reading.wav'),
          [2000, 800],
        );
        const engine = new FasterWhisperEngine({ accuracy: 'fast' });
        try {
          const transcript = await engine.transcribe(joined.file, { language: 'en' });
          expect(transcript.engine).toBe('faster-whisper:whisper-tiny-en');
          expect(wordErrorRate(joined.reference, transcriptText(transcript))).toBeLessThan(0.08);
          const last = transcript.segments.at(-1)!.words.at(-1)!;
          expect(last.endMs, 'the last reading is heard').toBeGreaterThan(
            transcript.durationMs - 4000,
          );
          expectValidWordTimings(transcript);
        } finally {
          engine.close();
        }
      },
      SLOW,
    );

    it(
      'starts a new process after the old one is killed, and fails only the file it was on',
      async () => {
        const engine = new FasterWhisperEngine({ accuracy: 'accurate', processes: 1 });
        try {
          await engine.transcribe(JFK, { language: 'en' });
          const killed = engine.servers[0]!.pid!;
          process.kill(killed, 'SIGKILL');
          // Give the exit a moment to be seen; the next file gets a fresh process either way.
          await new Promise((resolve) => setTimeout(resolve, 200));
          const after = await engine.transcribe(JFK, { language: 'en' });
          expect(engine.servers[0]!.pid).not.toBe(killed);
          expect(engine.servers[0]!.starts).toBe(2);
          expect(wordErrorRate(JFK_REFERENCE, transcriptText(after))).toBeLessThanOrEqual(0.1);

          // Killed while it works: that file fails with the engine's reason, the next one is heard.
          const pending = engine.transcribe(JFK, { language: 'en' });
          const victim = await waitFor(() => engine.servers[0]!.busy && engine.servers[0]!.pid);
          process.kill(victim, 'SIGKILL');
          await expect(pending).rejects.toMatchObject({ code: 'engine_failed' });
          const again = await engine.transcribe(JFK, { language: 'en' });
          expect(again.language).toBe('en');
          expect(engine.servers[0]!.starts).toBe(3);
        } finally {
          engine.close();
        }
      },
      SLOW,
    );

    it(
      'hears two files at once in two processes',
      async () => {
        const engine = new FasterWhisperEngine({ accuracy: 'accurate', processes: 2, threads: 1 });
        try {
          const both = await Promise.all([
            engine.transcribe(JFK, { language: 'en' }),
            engine.transcribe(JFK, { language: 'en' }),
          ]);
          const pids = engine.servers.map((server) => server.pid);
          expect(new Set(pids).size, 'two processes, one file each').toBe(2);
          for (const transcript of both) {
            expect(wordErrorRate(JFK_REFERENCE, transcriptText(transcript))).toBeLessThanOrEqual(
              0.1,
            );
          }
        } finally {
          engine.close();
        }
      },
      SLOW,
    );

    it(
      'starts every process and loads the model ahead of the first file when warmed',
      async () => {
        const engine = new FasterWhisperEngine({ accuracy: 'accurate', processes: 2 });
        try {
          engine.warm();
          // Both processes start at once, before any file is given.
          await waitFor(
            () => engine.servers.every((server) => server.pid && !server.busy),
            120_000,
          );
          const pids = engine.servers.map((server) => server.pid);
          const heard = await Promise.all([
            engine.transcribe(JFK, { language: 'en' }),
            engine.transcribe(JFK, { language: 'en' }),
          ]);
          expect(
            engine.servers.map((server) => server.pid),
            'the warmed processes heard them',
          ).toEqual(pids);
          expect(engine.servers.map((server) => server.starts)).toEqual([1, 1]);
          for (const transcript of heard) {
            expect(wordErrorRate(JFK_REFERENCE, transcriptText(transcript))).toBeLessThanOrEqual(
              0.1,
            );
          }
        } finally {
          engine.close();
        }
      },
      SLOW,
    );

    it(
      'stops a process that grew past its memory bound once its file is done',
      async () => {
        // Any Whisper process is larger than 200 MB resident, so this bound always trips.
        const engine = new FasterWhisperEngine({
          accuracy: 'accurate',
          processes: 1,
          maxProcessMb: 200,
        });
        try {
          const transcript = await engine.transcribe(JFK, { language: 'en' });
          expect(wordErrorRate(JFK_REFERENCE, transcriptText(transcript))).toBeLessThanOrEqual(0.1);
          expect(engine.servers[0]!.pid, 'stopped after the file').toBeUndefined();
          await engine.transcribe(JFK, { language: 'en' });
          expect(engine.servers[0]!.starts).toBe(2);
        } finally {
          engine.close();
        }
      },
      SLOW,
    );
  },
);

describe.skipIf(!availability.available || !hasSharedMedia)(
  'the idle Whisper processes after a long transcription',
  () => {
    it(
      'are stopped on release while a busy one keeps its file, and start again when needed',
      async () => {
        const engine = new FasterWhisperEngine({ accuracy: 'accurate', processes: 2 });
        try {
          const [first] = await Promise.all([
            engine.transcribe(JFK, { language: 'en' }),
            engine.transcribe(JFK, { language: 'en' }),
          ]);
          expect(engine.servers.every((server) => server.pid !== undefined)).toBe(true);
          // One file under way while the other process idles: only the idle one goes.
          const busy = engine.transcribe(JFK, { language: 'en' });
          await waitFor(() => engine.servers.some((server) => server.busy));
          engine.releaseIdle();
          expect(engine.servers.filter((server) => server.pid === undefined)).toHaveLength(1);
          const during = await busy;
          expect(transcriptText(during)).toBe(transcriptText(first!));
          engine.releaseIdle();
          expect(engine.servers.every((server) => server.pid === undefined)).toBe(true);
          const after = await engine.transcribe(JFK, { language: 'en' });
          expect(wordErrorRate(JFK_REFERENCE, transcriptText(after))).toBeLessThanOrEqual(0.1);
        } finally {
          engine.close();
        }
      },
      SLOW,
    );
  },
);

describe.skipIf(!availability.available)('the engine the server builds', () => {
  it(
    'starts its processes when a task is about to be heard, and gives them back on release',
    async () => {
      const inner = new FasterWhisperEngine({ accuracy: 'accurate', processes: 2 });
      // What createSpeechEngine hands the server: the engine behind the written-words step.
      const engine = withWrittenWordsEngine(inner);
      try {
        engine.warm?.();
        await waitFor(() => inner.servers.every((server) => server.pid !== undefined), 60_000);
        await waitFor(() => inner.servers.every((server) => !server.busy), 60_000);
        engine.releaseIdle?.();
        expect(inner.servers.map((server) => server.pid)).toEqual([undefined, undefined]);
      } finally {
        engine.close?.();
      }
    },
    SLOW,
  );
});

/**
 * A stand-in for the Python process that speaks the same JSON lines and really grows: each
 * "transcribe" keeps 60 MB more (touched, so resident). The bound is measured on the real process.
 */
const GROWING_SERVER = `
import json, sys
kept = []
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") == "transcribe":
        kept.append(bytearray(60 * 1024 * 1024))
    print(json.dumps({"id": request["id"], "ok": True, "segments": []}), flush=True)
`;

describe('a Whisper process that keeps growing', () => {
  it('is started afresh once it has grown past its bound over its first transcription', async () => {
    const script = join(workDir, 'growing-server.py');
    await writeFile(script, GROWING_SERVER);
    // The server runs "<python> -u whisper-server.py ..."; this wrapper runs the stand-in instead.
    const wrapper = join(workDir, 'python');
    await writeFile(wrapper, `#!/bin/sh\nexec python3 -u ${JSON.stringify(script)}\n`);
    await chmod(wrapper, 0o755);
    const server = new WhisperServer({
      pythonPath: wrapper,
      device: 'cpu',
      computeType: 'int8',
      threads: 1,
      maxGrowthMb: 100,
    });
    try {
      const transcribe = () => server.request({ op: 'transcribe', audio: '/dev/null' });
      await transcribe(); // the base: its size after the first transcription
      const pid = server.pid;
      await transcribe(); // 60 MB over it: kept
      expect(server.pid).toBe(pid);
      await transcribe(); // 120 MB over it: past the bound, stopped after its file
      expect(server.pid).toBeUndefined();
      await transcribe();
      expect(server.starts).toBe(2);
      expect(server.pid).not.toBe(pid);
    } finally {
      server.stop();
    }
  });
});

async function waitFor<T>(probe: () => T | false | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Measured on an H100 whose only CUDA is 13: CTranslate2 4.8 loaded the model, then failed every
// file with "Library libcublas.so.12 is not found". A GPU process must say so when it starts.
describe.skipIf(!availability.available)('a GPU process without CUDA 12 cuBLAS', () => {
  it('stops at start naming the library and how to install it', async () => {
    const { runProcess } = await import('@moments/process');
    const { WHISPER_SERVER_SCRIPT } = await import('./whisper-server');
    const python = new FasterWhisperEngine().options.pythonPath;
    const check = await runProcess(python, ['-c', 'import ctypes; ctypes.CDLL("libcublas.so.12")']);
    // On a machine that has CUDA 12 cuBLAS there is nothing to refuse.
    if (check.exitCode === 0) return;
    const started = await runProcess(python, [WHISPER_SERVER_SCRIPT, '--device', 'cuda'], {
      timeoutMs: 60_000,
    });
    expect(started.exitCode).not.toBe(0);
    expect(started.stderrTail).toMatch(/libcublas\.so\.12/);
    expect(started.stderrTail).toMatch(/nvidia-cublas-cu12/);
  });
});

/**
 * The sequential decoder (whisper-base on a CPU, the default) now and then jumps past a stretch of
 * speech: on a bench talk it dropped 25 s, keeping one garbled line. The real model, with that
 * jump made to happen on its first pass: everything it decodes in [DROP_FROM, DROP_TO] is left out.
 */
const SKIPPING_DECODER = `
import importlib.util, json, sys
from faster_whisper import WhisperModel
script, model_dir, audio, drop_from, drop_to = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
spec = importlib.util.spec_from_file_location("whisper_server", script)
server = importlib.util.module_from_spec(spec)
spec.loader.exec_module(server)
model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=2, local_files_only=True)
passes = []
class SkippingModel:
    def transcribe(self, audio, **options):
        segments, info = model.transcribe(audio, **options)
        passes.append(options.get("clip_timestamps", "vad"))
        if len(passes) > 1:
            return segments, info
        return (s for s in segments if s.end <= drop_from or s.start >= drop_to), info
told = []
options = dict(language="en", beam_size=1, word_timestamps=True, vad_filter=True)
segments, _ = server.transcribe_sequential(SkippingModel(), audio, options, told.append)
words = lambda found: [{"word": w.word, "start": w.start, "end": w.end} for s in found for w in s.words]
print(json.dumps({"first": words(told), "final": words(segments), "passes": passes}))
`;

describe.skipIf(!availability.available || !hasSharedMedia)(
  'a sequential decoder that jumps past speech',
  () => {
    it(
      'decodes the stretch it skipped again, so the transcript keeps every sentence',
      async (ctx) => {
        const recordings = englishRecordings();
        if (recordings.length < 8) return ctx.skip('needs pocketsphinx-testdata (LibriVox)');
        const { runProcess } = await import('@moments/process');
        const { WHISPER_SERVER_SCRIPT } = await import('./whisper-server');
        const { options } = new FasterWhisperEngine({ accuracy: 'accurate' });
        const joined = await joinRecordings(recordings, join(workDir, 'talk.wav'));
        const script = join(workDir, 'skipping-decoder.py');
        await writeFile(script, SKIPPING_DECODER);
        const [dropFrom, dropTo] = [joined.startsMs[3]! / 1000, joined.startsMs[5]! / 1000];
        const run = await runProcess(
          options.pythonPath,
          [
            script,
            WHISPER_SERVER_SCRIPT,
            options.modelDir!,
            joined.file,
            `${dropFrom}`,
            `${dropTo}`,
          ],
          { timeoutMs: SLOW },
        );
        expect(run.exitCode, run.stderrTail).toBe(0);
        type Word = { word: string; start: number; end: number };
        const result = JSON.parse(run.stdout.toString()) as {
          first: Word[];
          final: Word[];
          passes: unknown[];
        };
        const text = (words: Word[]) => words.map((w) => w.word).join('');
        const inDrop = (words: Word[]) =>
          words.filter((w) => w.start >= dropFrom && w.end <= dropTo);
        // The first pass really lost the two readings in the stretch...
        expect(inDrop(result.first)).toHaveLength(0);
        expect(wordErrorRate(joined.reference, text(result.first))).toBeGreaterThan(0.2);
        // ...and the transcript has them back, in order, heard as well as the rest.
        expect(result.passes.length).toBeGreaterThan(1);
        expect(inDrop(result.final).length).toBeGreaterThan(20);
        expect(wordErrorRate(joined.reference, text(result.final))).toBeLessThan(0.12);
        const starts = result.final.map((w) => w.start);
        expect(starts).toEqual([...starts].sort((a, b) => a - b));
      },
      SLOW,
    );
  },
);
