/**
 * The transcription half of `npm run bench -- speed`, each stage beside its
 * limit in the same run:
 *  - `models`: Whisper tiny.en batched vs base, speed and WER on every real English recording;
 *  - `threads`: one Whisper process with 2 threads vs 2 processes with 1 thread on the same chunks;
 *  - `task`: upload to ranked moments vs transcription alone, time to the first (provisional)
 *    moment, peak memory, WER of the task's transcript;
 *  - `workers`: the chunks of one task over 1, 2 and 3 worker processes on PostgreSQL.
 */
import path from 'node:path';
import {
  FasterWhisperEngine,
  fasterWhisperAvailability,
  chunkPlanFor,
  frameLoudness,
  planChunks,
  type Transcript,
} from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { extractAudioForAsr, extractAudioSpan } from '@moments/media/probe';
import { englishRecordings, type Recording } from '../packages/ai/test/support/recordings.js';
import { startBenchServer, uploadAndRunTask } from './bench-server';
import { measured, load, mb } from './speed-measure';
import { realSpeech, talkInput } from './speed-inputs';

const textOf = (transcript: Transcript) => transcript.segments.map((s) => s.text).join(' ');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** Whisper tiny.en batched (the fast English path) vs base on every real English recording. */
export async function compareModels(dir: string): Promise<void> {
  const recordings = englishRecordings();
  if (!fasterWhisperAvailability().available || !recordings.length) {
    console.log('speed: models skipped (no faster-whisper or no real English recordings)');
    return;
  }
  const joined = await realSpeech(dir, 1);
  const cases: { name: string; recording?: Recording; wav?: string; reference?: string }[] = [
    ...recordings.map((r) => ({ name: r.name, recording: r })),
    ...(joined ? [{ name: 'all, joined', wav: joined.wav, reference: joined.reference }] : []),
  ];
  const engines = {
    base: new FasterWhisperEngine({ accuracy: 'accurate' }),
    'tiny.en batched': new FasterWhisperEngine({ accuracy: 'fast' }),
  };
  const totals = Object.fromEntries(
    Object.keys(engines).map((name) => [name, { errors: 0, refWords: 0, audio: 0, wall: 0 }]),
  );
  try {
    for (const engine of Object.values(engines)) {
      await engine.transcribe(recordings[0]!.file, { language: 'en' }); // load the model first
    }
    for (const item of cases) {
      const wav = item.recording
        ? await cut(dir, item.recording.file, item.recording.fromS, item.recording.forS)
        : item.wav!;
      const reference = item.recording?.reference ?? item.reference!;
      const cells: string[] = [];
      for (const [name, engine] of Object.entries(engines)) {
        const run = await measured(() => engine.transcribe(wav, { language: 'en' }));
        const wer = wordErrorRate(reference, textOf(run.value));
        const seconds = run.value.durationMs / 1000;
        cells.push(`${name} WER ${pct(wer)}, ${(seconds / run.sec).toFixed(1)}x real time`);
        if (item.recording) {
          const total = totals[name]!;
          total.errors += wer * words(reference);
          total.refWords += words(reference);
          total.audio += seconds;
          total.wall += run.sec;
        }
      }
      console.log(`speed: models on ${item.name}: ${cells.join(' | ')}; ${load()}`);
    }
    await compareOnLongReading(dir, engines);
    const [base, tiny] = [totals.base!, totals['tiny.en batched']!];
    console.log(
      `speed: models over ${recordings.length} real English recordings (${base.audio.toFixed(0)} s, ` +
        `${base.refWords} words): base WER ${pct(base.errors / base.refWords)} at ` +
        `${(base.audio / base.wall).toFixed(1)}x real time vs tiny.en batched WER ` +
        `${pct(tiny.errors / tiny.refWords)} at ${(tiny.audio / tiny.wall).toFixed(1)}x; ` +
        `tiny.en ${(base.wall / tiny.wall).toFixed(2)}x faster; goal: WER not worse than base; ${load()}`,
    );
  } finally {
    Object.values(engines).forEach((engine) => engine.close());
  }
}

/** Both models on 10 minutes of joined real readings, in the product's chunks, merged. */
async function compareOnLongReading(
  dir: string,
  engines: Record<string, FasterWhisperEngine>,
): Promise<void> {
  const speech = await realSpeech(dir, 600);
  if (!speech) return;
  const cells: string[] = [];
  for (const [name, engine] of Object.entries(engines)) {
    const chunks = await chunkFiles(dir, speech.wav, engine.parallelism);
    const run = await measured(() => transcribeChunks(engine, chunks));
    const heard = run.value.map(textOf).join(' ');
    cells.push(
      `${name} WER ${pct(wordErrorRate(speech.reference, heard))}, ` +
        `${(speech.seconds / run.sec).toFixed(1)}x real time`,
    );
  }
  console.log(
    `speed: models on ${speech.seconds.toFixed(0)} s of joined real readings in chunks: ${cells.join(' | ')}; ${load()}`,
  );
}

async function cut(dir: string, file: string, fromS?: number, forS?: number): Promise<string> {
  const out = path.join(dir, `${path.basename(file).replace(/\W/g, '_')}-${fromS ?? 0}.wav`);
  await extractAudioSpan(
    file,
    out,
    { startMs: (fromS ?? 0) * 1000, endMs: ((fromS ?? 0) + (forS ?? 3600)) * 1000 },
    {},
  );
  return out;
}

/** The chunks of `wav` as the product plans them for `parallelism` processes, as files. */
async function chunkFiles(dir: string, wav: string, parallelism: number): Promise<string[]> {
  const loudness = await frameLoudness(wav);
  const durationMs = loudness.length * 10;
  const spans = planChunks(
    loudness,
    durationMs,
    chunkPlanFor(durationMs, { chunkMs: 180_000, parallelism }),
  );
  return Promise.all(
    spans.map((span, i) => extractAudioSpan(wav, path.join(dir, `chunk-${i}.wav`), span)),
  );
}

/** Transcription alone: the chunks through one engine (its processes at once), in English. */
async function transcribeChunks(engine: FasterWhisperEngine, chunks: string[]) {
  return Promise.all(chunks.map((chunk) => engine.transcribe(chunk, { language: 'en' })));
}

/** Two chunks at once with one thread each vs one chunk at a time with two threads. */
export async function compareThreads(dir: string, seconds = 600): Promise<void> {
  const speech = await realSpeech(dir, seconds);
  if (!fasterWhisperAvailability().available || !speech) {
    console.log('speed: threads skipped (no faster-whisper or no real recordings)');
    return;
  }
  // The 3-minute chunks of a long talk (one process or two, the same plan).
  const chunks = await chunkFiles(dir, speech.wav, 1);
  const layouts = [
    { name: '1 process x 2 threads', processes: 1, threads: 2 },
    { name: '2 processes x 1 thread', processes: 2, threads: 1 },
  ];
  const results: { name: string; sec: number; peak: number }[] = [];
  for (const layout of layouts) {
    // The default model (base): the layout the product's default runs.
    const engine = new FasterWhisperEngine({
      processes: layout.processes,
      threads: layout.threads,
    });
    try {
      await transcribeChunks(engine, chunks.slice(0, layout.processes)); // warm every process
      const run = await measured(() => transcribeChunks(engine, chunks));
      results.push({ name: layout.name, sec: run.sec, peak: run.peak });
    } finally {
      engine.close();
    }
  }
  const [one, two] = results as [(typeof results)[0], (typeof results)[0]];
  console.log(
    `speed: threads, ${chunks.length} chunks of ${speech.seconds.toFixed(0)} s real speech (Whisper base): ` +
      results
        .map(
          (r) =>
            `${r.name} ${r.sec.toFixed(1)} s = ${(speech.seconds / r.sec).toFixed(1)}x real time, peak ${mb(r.peak)}`,
        )
        .join(' | ') +
      `; 2x1 / 1x2 = ${(two.sec / one.sec).toFixed(2)} (under 1: two processes win); ${load()}`,
  );
}

/**
 * Upload to ranked moments vs transcription alone on the same audio, with the time to the first
 * provisional moment, the peak memory and the WER of the task's own transcript.
 */
export async function taskStages(dir: string, inputs: number[]): Promise<void> {
  if (!fasterWhisperAvailability().available) {
    console.log('speed: task stages skipped (no faster-whisper)');
    return;
  }
  // No plan limits: the hour-long input is longer than the free plan's longest video.
  const server = await startBenchServer(path.join(dir, 'server'), 'speed', { BILLING: 'off' });
  try {
    for (const seconds of inputs) {
      const input = await talkInput(dir, seconds);
      if (!input) {
        console.log('speed: task stages skipped (no real recordings or no opencv-doc pictures)');
        return;
      }
      let firstMomentAt: number | undefined;
      let doneAt: number | undefined;
      let followedUpAt: number | undefined;
      let startedAt = 0;
      let watched = '';
      const stopListening = await server.services.bus.subscribe((_user, message) => {
        const data = message.data as {
          task_id?: string;
          task_status?: string;
          partial?: { moments: unknown[] };
          followed_up?: boolean;
        };
        if (data.task_id !== watched) return;
        const at = (performance.now() - startedAt) / 1000;
        if (data.partial?.moments.length && !firstMomentAt) firstMomentAt = at;
        // The DONE push itself (the poll below sees it up to 250 ms later).
        if (data.task_status === 'DONE' && !data.followed_up && !doneAt) doneAt = at;
        if (data.followed_up && !followedUpAt) followedUpAt = at;
      });
      const task = await measured(() =>
        uploadAndRunTask(server, input.video, (id, at) => {
          watched = id;
          startedAt = at;
        }),
      );
      // The moments' pictures and the search's embeddings follow DONE: waited for, so the
      // transcription alone below runs on a machine this task no longer uses.
      for (let i = 0; i < 600 && !followedUpAt; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await stopListening();
      const stored = await server.services.database.db.query.transcripts.findFirst({
        where: (t, { eq }) => eq(t.taskId, task.value.taskId),
      });
      const heard = ((stored?.segments ?? []) as Transcript['segments'])
        .map((s) => s.text)
        .join(' ');
      const wav = path.join(dir, `task-${seconds}.wav`);
      await extractAudioForAsr(input.video, wav);
      // The limit runs the engine the server runs (same processes and threads), outside the
      // server, with the same chunk plan; its processes stop before the next task is measured.
      const alone = new FasterWhisperEngine();
      const chunks = await chunkFiles(dir, wav, alone.parallelism);
      const limit = await measured(() => transcribeChunks(alone, chunks)).finally(() =>
        alone.close(),
      );
      const stageAt = (stage: string) =>
        Number(new RegExp(`${stage}@([\\d.]+)s`).exec(task.value.stages)?.[1] ?? NaN);
      const transcribingAt = stageAt('transcribing');
      // The stage after transcribing that the 250 ms look saw first (analysing is quick).
      const analysingAt = ['analysing', 'summary', 'finishing']
        .map(stageAt)
        .find((at) => !Number.isNaN(at));
      // Ranked moments are stored when the summary starts (or the task ends without one).
      const rankedAt = Number.isNaN(stageAt('summary')) ? task.sec : stageAt('summary');
      const toDone = doneAt ?? task.sec;
      console.log(
        `speed: task ${input.seconds.toFixed(0)} s: upload to DONE ${toDone.toFixed(1)} s vs ` +
          `transcription alone ${limit.sec.toFixed(1)} s: ratio ${(toDone / limit.sec).toFixed(2)} ` +
          `(goal <= 1.1: ${toDone / limit.sec <= 1.1 ? 'met' : 'NOT met'}); pictures and search ` +
          `embeddings pushed ${followedUpAt ? `at ${followedUpAt.toFixed(1)} s, ${(followedUpAt - toDone).toFixed(1)} s after DONE` : 'never (waited 60 s)'}; ${load()}`,
      );
      // The task log's reading: when its transcription was done (the next stage began) and when
      // it was DONE, both from the upload's start: what is left after the engine's work.
      if (analysingAt !== undefined) {
        console.log(
          `speed: task ${input.seconds.toFixed(0)} s, its log: transcription done at ${analysingAt.toFixed(1)} s, ` +
            `DONE at ${toDone.toFixed(1)} s after the upload began: ratio ${(toDone / analysingAt).toFixed(2)} ` +
            `(${(toDone - analysingAt).toFixed(1)} s after the transcription)`,
        );
      }
      console.log(
        `speed: task ${input.seconds.toFixed(0)} s real speech over real-looking video, ${chunks.length} chunk(s): ` +
          `upload to ranked moments ${rankedAt.toFixed(1)} s = ${(input.seconds / rankedAt).toFixed(1)}x real time, ` +
          `to ${task.value.status} ${task.sec.toFixed(1)} s = ${(input.seconds / task.sec).toFixed(1)}x ` +
          `(peak ${mb(task.peak)}; ${task.value.stages}) vs transcription alone ${limit.sec.toFixed(1)} s = ` +
          `${(input.seconds / limit.sec).toFixed(1)}x (peak ${mb(limit.peak)}); ranked moments / alone ${(rankedAt / limit.sec).toFixed(2)}; ` +
          `task WER ${pct(wordErrorRate(input.reference, heard))}; first moment ` +
          (firstMomentAt
            ? `at ${firstMomentAt.toFixed(1)} s (transcription ran ${transcribingAt}-${analysingAt ?? task.sec} s)`
            : 'only with the final ranking (one chunk)') +
          `; goals >= 15x real time, 60 min peak < 2 GB; ${load()}`,
      );
    }
  } finally {
    await server.close();
  }
}
