import { accessSync, constants as fsConstants, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@moments/process';
import { probeAudioDurationMs } from './audio-duration';
import { toLanguageCode } from './languages';
import { frameLoudness, snapWordsToSpeech } from './speech-onsets';
import type { SpeechEngine, TranscribeOptions, Transcript } from './types';
import { SpeechRecognitionError } from './types';
import { WHISPER_SERVER_SCRIPT, WhisperServerPool } from './whisper-server';
import { buildTranscript, type RawSegment } from './word-timing';

/** The checkout's .tools folder, where scripts/setup.sh installs the venv and the models. */
const TOOLS_DIR = fileURLToPath(new URL('../../../../.tools/', import.meta.url));
const DEFAULT_PYTHON = join(TOOLS_DIR, 'venv', 'bin', 'python');
export const DEFAULT_MODEL_DIR = join(TOOLS_DIR, 'models', 'whisper-base');
export const DEFAULT_ENGLISH_MODEL_DIR = join(TOOLS_DIR, 'models', 'whisper-tiny-en');

export interface FasterWhisperOptions {
  /** The Python with faster-whisper (env ASR_PYTHON; default .tools/venv/bin/python). */
  pythonPath: string;
  /** A local CTranslate2 Whisper model directory (env ASR_MODEL_DIR; default the one setup installs). */
  modelDir?: string;
  /** A Whisper model name ("small", "large-v3"...) fetched from the model hub on first use (env ASR_MODEL). */
  modelName?: string;
  /**
   * `fast`: English speech is transcribed by the English-only model, batched (Whisper tiny.en:
   * about 2x faster than base); every other language, and language detection, by the main model.
   * `accurate` (the default, env ASR_ACCURACY): the main model for everything. Decided by
   * measurement (README): on 10 minutes of joined real readings tiny.en heard 6.4-7.7%
   * of the words wrong where base heard 4.6-5.0%, so it is not the default.
   */
  accuracy: 'fast' | 'accurate';
  /** The English-only model of the fast path (env ASR_ENGLISH_MODEL_DIR; default tiny.en from setup). */
  englishModelDir: string;
  /** Batch size of the English path (env ASR_ENGLISH_BATCH_SIZE): sequential tiny.en drops last words. */
  englishBatchSize: number;
  /** Beams of the English path's decoder (env ASR_ENGLISH_BEAM_SIZE). */
  englishBeamSize: number;
  /** Longest clip of speech the English path decodes at once (env ASR_ENGLISH_CLIP_SECONDS). */
  englishClipSeconds: number;
  /** CPU threads of each Python process (env ASR_THREADS; default all cores / processes). */
  threads: number;
  /** CTranslate2 quantisation; int8 is the fastest on CPUs without loss that matters for captions. */
  computeType: string;
  /** `cuda` runs on an NVIDIA GPU (env ASR_DEVICE; checked with cudaAvailability at start). */
  device: 'cpu' | 'cuda';
  /** The main model's batched pipeline with this many chunks at once (env ASR_BATCH_SIZE); 0: sequential. */
  batchSize: number;
  /** Beams in the decoder's search (env ASR_BEAM_SIZE); 1 is greedy decoding. */
  beamSize: number;
  /**
   * Python processes kept, each transcribing one file at a time (env ASR_PROCESSES; default 2 on
   * a CPU with 2+ cores, 1 on a GPU).
   */
  processes: number;
  /** A process left larger than this after a file is restarted (env ASR_PROCESS_MAX_MB). */
  maxProcessMb: number;
  /**
   * A process grown by more than this over its size after its first transcription is restarted
   * after its file (env ASR_PROCESS_MAX_GROWTH_MB).
   */
  maxProcessGrowthMb: number;
}

type Env = Record<string, string | undefined>;

const intFrom = (value: string | undefined, valid: (n: number) => boolean): number | undefined => {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isInteger(parsed) && valid(parsed) ? parsed : undefined;
};

export function fasterWhisperOptionsFromEnv(env: Env = process.env): FasterWhisperOptions {
  const modelDir = env.ASR_MODEL_DIR?.trim() || undefined;
  const device = env.ASR_DEVICE?.trim() === 'cuda' ? 'cuda' : 'cpu';
  const modelName = modelDir ? undefined : env.ASR_MODEL?.trim() || undefined;
  // Two processes of one thread each beat one of two threads on 2 cores (0.71 of its time on
  // the same chunks, README); a GPU takes one batched process.
  const processes =
    intFrom(env.ASR_PROCESSES, (n) => n >= 1 && n <= 16) ??
    (device === 'cuda' ? 1 : Math.min(2, availableParallelism()));
  const accuracy = env.ASR_ACCURACY?.trim();
  return {
    pythonPath: env.ASR_PYTHON?.trim() || DEFAULT_PYTHON,
    modelDir: modelDir ?? (modelName ? undefined : DEFAULT_MODEL_DIR),
    modelName,
    accuracy: accuracy === 'fast' ? 'fast' : 'accurate',
    englishModelDir: env.ASR_ENGLISH_MODEL_DIR?.trim() || DEFAULT_ENGLISH_MODEL_DIR,
    englishBatchSize: intFrom(env.ASR_ENGLISH_BATCH_SIZE, (n) => n >= 1 && n <= 64) ?? 4,
    // Beam 5: 6.4% WER instead of 7.7% greedy on the 10-minute reading, for 9% more time.
    englishBeamSize: intFrom(env.ASR_ENGLISH_BEAM_SIZE, (n) => n >= 1 && n <= 10) ?? 5,
    englishClipSeconds: intFrom(env.ASR_ENGLISH_CLIP_SECONDS, (n) => n >= 5 && n <= 30) ?? 30,
    threads:
      intFrom(env.ASR_THREADS, (n) => n > 0) ??
      Math.max(1, Math.floor(availableParallelism() / processes)),
    device,
    // float16 is what GPUs are fast at; int8 on CPUs.
    computeType: env.ASR_COMPUTE_TYPE?.trim() || (device === 'cuda' ? 'float16' : 'int8'),
    // Sequential base on CPU: batching 8 chunks transcribed a minute 1.3x faster on 2 cores with
    // the same WER, but misheard the first word after a pause ("back" as "mac", onset.slow.test.ts).
    batchSize: intFrom(env.ASR_BATCH_SIZE, (n) => n >= 0) ?? (device === 'cuda' ? 16 : 0),
    // Greedy on CPU: against Whisper's default beam of 5 it transcribed 155 s of read speech 1.5x
    // faster at the same WER (2.1% vs 2.3%) and kept the onset words (README, asr-options).
    beamSize: intFrom(env.ASR_BEAM_SIZE, (n) => n >= 1 && n <= 10) ?? (device === 'cuda' ? 5 : 1),
    processes,
    maxProcessMb: intFrom(env.ASR_PROCESS_MAX_MB, (n) => n >= 200) ?? 1500,
    // An hour in 3-minute chunks grew each base process by 150 MB (2.3 GB in all at the end).
    maxProcessGrowthMb: intFrom(env.ASR_PROCESS_MAX_GROWTH_MB, (n) => n >= 0) ?? 120,
  };
}

/** Whether the local engine can run; the reason names the fix (the setup script). */
export function fasterWhisperAvailability(
  options: FasterWhisperOptions = fasterWhisperOptionsFromEnv(),
): { available: true } | { available: false; reason: string } {
  try {
    accessSync(options.pythonPath, fsConstants.X_OK);
  } catch {
    // Missing or not executable: the reason says how to install it.
    return {
      available: false,
      reason: `the faster-whisper Python was not found at ${options.pythonPath}: run bash scripts/setup.sh`,
    };
  }
  if (options.modelDir && !existsSync(join(options.modelDir, 'model.bin'))) {
    return {
      available: false,
      reason: `no CTranslate2 model in ${options.modelDir}: run bash scripts/setup.sh or set ASR_MODEL_DIR`,
    };
  }
  return { available: true };
}

/**
 * Whether `ASR_DEVICE=cuda` can work here: CTranslate2 (in the engine's own Python) must see a CUDA
 * device and load CUDA 12's cuBLAS, which it otherwise opens only at the first transcription
 * (measured on an H100 with only CUDA 13: the model loaded, then every file failed). The reason
 * says what is missing, for the refusal at start.
 */
export async function cudaAvailability(
  options: Pick<FasterWhisperOptions, 'pythonPath'> = fasterWhisperOptionsFromEnv(),
): Promise<{ available: true } | { available: false; reason: string }> {
  const probe = await runProcess(options.pythonPath, [WHISPER_SERVER_SCRIPT, '--check-cuda'], {
    timeoutMs: 60_000,
  });
  let answer: { ok?: boolean; devices?: number; error?: string } = {};
  try {
    answer = JSON.parse(probe.stdout.toString('utf8').trim().split('\n').at(-1) ?? '{}');
  } catch {
    // Not JSON: the Python itself failed; its stderr tail says why, below.
  }
  if (answer.ok) return { available: true };
  const why = probe.spawnError
    ? probe.spawnError.message
    : (answer.error ?? probe.stderrTail.trim().split('\n').at(-1) ?? `exit ${probe.exitCode}`);
  return {
    available: false,
    reason:
      answer.devices === 0
        ? 'ASR_DEVICE=cuda, but CTranslate2 sees no CUDA GPU on this machine (needs an NVIDIA GPU with its driver and CUDA 12 cuBLAS); unset ASR_DEVICE to transcribe on the CPU'
        : `ASR_DEVICE=cuda, but the faster-whisper environment cannot use the GPU (${why}); unset ASR_DEVICE to transcribe on the CPU`,
  };
}

/** Which model transcribes a file, and how. */
interface ModelChoice {
  model: string;
  downloadRoot?: string;
  batchSize: number;
  beamSize: number;
  clipSeconds?: number;
  label: string;
}

interface ServerSegment {
  start: number;
  end: number;
  text: string;
  words?: { word: string; start: number; end: number; probability?: number }[];
}

/**
 * Local speech recognition with faster-whisper in long-lived Python processes (whisper-server.ts).
 * Without a language given, the main model detects it on the first speech; English then goes to
 * the fast English model (accuracy `fast`), everything else to the main model.
 */
export class FasterWhisperEngine implements SpeechEngine {
  readonly name: string;
  readonly options: FasterWhisperOptions;
  private readonly pool: WhisperServerPool;

  constructor(options: Partial<FasterWhisperOptions> = {}) {
    const defaults = fasterWhisperOptionsFromEnv();
    this.options = { ...defaults, ...options };
    if (options.modelName && !options.modelDir) delete this.options.modelDir;
    this.name = `faster-whisper:${this.mainModel().label}`;
    const { pythonPath, device, computeType, threads, processes, maxProcessMb } = this.options;
    const { maxProcessGrowthMb } = this.options;
    this.pool = new WhisperServerPool(processes, {
      pythonPath,
      device,
      computeType,
      threads,
      maxRssMb: maxProcessMb,
      maxGrowthMb: maxProcessGrowthMb,
    });
  }

  get parallelism(): number {
    return this.options.processes;
  }

  /** The Python processes (tests and the bench look at their pids and restarts). */
  get servers() {
    return this.pool.servers;
  }

  /** Stops the Python processes (the server's shutdown; they also stop with this process). */
  close(): void {
    this.pool.close();
  }

  /** Stops the Python processes no request is using now. */
  releaseIdle(): void {
    this.pool.releaseIdle();
  }

  /**
   * Loads the main model in every process from `from` on without waiting: a chunk that needs
   * a process still loading simply waits for it. In the fast mode the English model is loaded
   * by the first English chunk (the main model detects the language in either mode).
   */
  warm(from = 0): void {
    const main = this.mainModel();
    for (let slot = from; slot < this.pool.servers.length; slot++) {
      void this.pool
        .use((server) =>
          server.request(
            { op: 'load', model: main.model, download_root: main.downloadRoot },
            { timeoutMs: 300_000 },
          ),
        )
        // Best effort: a process that cannot start fails the request that needs it, saying why.
        .catch(() => undefined);
    }
  }

  /** The language of the first speech in the file, by the main model (ISO 639-1). */
  async detectLanguage(audioFile: string, opts: { signal?: AbortSignal } = {}): Promise<string> {
    const main = this.mainModel();
    const detecting = this.pool.use(
      (server) =>
        server.request<{ language: string }>(
          {
            op: 'detect',
            audio: resolve(audioFile),
            model: main.model,
            download_root: main.downloadRoot,
          },
          { signal: opts.signal, timeoutMs: 300_000 },
        ),
      opts.signal,
    );
    // The chunks wait for the language: meanwhile the other processes start and load the
    // model, instead of after (a no-op where they run already).
    this.warm(1);
    const reply = await detecting;
    return toLanguageCode(reply.language) ?? reply.language;
  }

  async transcribe(audioFile: string, opts: TranscribeOptions = {}): Promise<Transcript> {
    const given = opts.language ? checkedLanguage(opts.language) : undefined;
    opts.signal?.throwIfAborted();
    // One deadline for the whole call: detection, transcription and the loudness read.
    const deadline = opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined;
    const signal = AbortSignal.any([opts.signal, deadline].filter((s) => s !== undefined));
    try {
      return await this.transcribeWithin(resolve(audioFile), given, signal, opts.onProgress);
    } catch (error) {
      if (deadline?.aborted && !opts.signal?.aborted) {
        throw new SpeechRecognitionError(
          `transcription took longer than ${opts.timeoutMs} ms`,
          'timeout',
          { cause: error },
        );
      }
      throw error;
    }
  }

  private async transcribeWithin(
    input: string,
    given: string | undefined,
    signal: AbortSignal,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<Transcript> {
    const durationMs = await probeAudioDurationMs(input, signal);
    const language =
      given ??
      (this.options.accuracy === 'fast' ? await this.detectLanguage(input, { signal }) : undefined);
    const choice = this.modelFor(language);
    // The loudness the word times are snapped to (below) is read while Whisper works.
    const loudnessRead = frameLoudness(input, signal).catch(() => undefined);
    try {
      let lastFraction = 0;
      const reply = await this.pool.use(
        (server) =>
          server.request<{ language?: string; segments?: ServerSegment[] }>(
            {
              op: 'transcribe',
              audio: input,
              model: choice.model,
              download_root: choice.downloadRoot,
              language: language ?? null,
              batch_size: choice.batchSize,
              beam_size: choice.beamSize,
              clip_s: choice.clipSeconds ?? null,
            },
            {
              signal,
              onProgress: (seconds) => {
                const fraction = Math.min(0.99, (seconds * 1000) / durationMs);
                if (fraction <= lastFraction) return;
                lastFraction = fraction;
                onProgress?.(fraction);
              },
            },
          ),
        signal,
      );
      const transcript = buildTranscript(
        toLanguageCode(reply.language ?? '') ?? language ?? 'und',
        durationMs,
        rawSegments(reply.segments ?? []),
      );
      transcript.engine = `faster-whisper:${choice.label}`;
      // Whisper lets words at a pause swallow the silence; clips start at words, so put them on the speech.
      const loudness = await loudnessRead;
      signal.throwIfAborted();
      onProgress?.(1);
      return loudness ? snapWordsToSpeech(transcript, loudness) : transcript;
    } finally {
      await loudnessRead; // settled (never rejects): no ffmpeg outlives the call
    }
  }

  private mainModel(): ModelChoice {
    const { modelDir, modelName, batchSize, beamSize } = this.options;
    if (modelDir) {
      return { model: resolve(modelDir), batchSize, beamSize, label: basename(resolve(modelDir)) };
    }
    return {
      model: modelName ?? 'base',
      downloadRoot: join(TOOLS_DIR, 'models', 'hub'),
      batchSize,
      beamSize,
      label: modelName ?? 'base',
    };
  }

  /** English on the fast path when its model is installed; the main model otherwise. */
  private modelFor(language: string | undefined): ModelChoice {
    const { accuracy, englishModelDir, englishBatchSize, englishBeamSize, englishClipSeconds } =
      this.options;
    if (
      language === 'en' &&
      accuracy === 'fast' &&
      existsSync(join(englishModelDir, 'model.bin'))
    ) {
      const model = resolve(englishModelDir);
      return {
        model,
        batchSize: englishBatchSize,
        beamSize: englishBeamSize,
        clipSeconds: englishClipSeconds,
        label: basename(model),
      };
    }
    return this.mainModel();
  }
}

function rawSegments(segments: ServerSegment[]): RawSegment[] {
  return segments.map((segment) => ({
    start: segment.start,
    end: segment.end,
    text: segment.text,
    words: (segment.words ?? []).map((w) => ({
      text: w.word,
      start: w.start,
      end: w.end,
      confidence: w.probability,
    })),
  }));
}

function checkedLanguage(language: string): string {
  const code = toLanguageCode(language);
  if (!code) throw new SpeechRecognitionError(`unsupported language "${language}"`, 'bad_input');
  return code;
}
