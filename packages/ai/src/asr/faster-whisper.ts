import { execFile } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeAudioDurationMs } from './audio-duration';
import { toLanguageCode } from './languages';
import { frameLoudness, snapWordsToSpeech } from './speech-onsets';
import type { SpeechEngine, TranscribeOptions, Transcript } from './types';
import { SpeechRecognitionError } from './types';
import { buildTranscript, type RawSegment } from './word-timing';
import { startProcess } from '@moments/media/process';

/** The checkout's .tools folder, where scripts/setup.sh installs the venv and the default model. */
export const TOOLS_DIR = fileURLToPath(new URL('../../../../.tools/', import.meta.url));
export const DEFAULT_WHISPER_EXECUTABLE = join(TOOLS_DIR, 'venv', 'bin', 'whisper-ctranslate2');
export const DEFAULT_MODEL_DIR = join(TOOLS_DIR, 'models', 'whisper-base');

export interface FasterWhisperOptions {
  /** whisper-ctranslate2 executable (PeerTube-style override: env WHISPER_CTRANSLATE2_PATH). */
  executablePath: string;
  /** A local CTranslate2 Whisper model directory (env ASR_MODEL_DIR; default the one setup installs). */
  modelDir?: string;
  /** A Whisper model name ("small", "large-v3"...) fetched from the model hub on first use (env ASR_MODEL). */
  modelName?: string;
  /** CPU threads for inference (env ASR_THREADS; default all cores). */
  threads: number;
  /** CTranslate2 quantisation; int8 is the fastest on CPUs without loss that matters for captions. */
  computeType: string;
  /** `cuda` runs on an NVIDIA GPU (env ASR_DEVICE; checked with cudaAvailability at start). */
  device: 'cpu' | 'cuda';
  /** faster-whisper's batched pipeline with this many chunks at once (env ASR_BATCH_SIZE); 0: sequential. */
  batchSize: number;
  /** Beams in the decoder's search (env ASR_BEAM_SIZE); 1 is greedy decoding. */
  beamSize: number;
}

type Env = Record<string, string | undefined>;

export function fasterWhisperOptionsFromEnv(env: Env = process.env): FasterWhisperOptions {
  const threads = Number.parseInt(env.ASR_THREADS ?? '', 10);
  const modelDir = env.ASR_MODEL_DIR?.trim() || undefined;
  const device = env.ASR_DEVICE?.trim() === 'cuda' ? 'cuda' : 'cpu';
  const batchSize = Number.parseInt(env.ASR_BATCH_SIZE ?? '', 10);
  const beamSize = Number.parseInt(env.ASR_BEAM_SIZE ?? '', 10);
  const modelName = modelDir ? undefined : env.ASR_MODEL?.trim() || undefined;
  return {
    executablePath: env.WHISPER_CTRANSLATE2_PATH?.trim() || DEFAULT_WHISPER_EXECUTABLE,
    modelDir: modelDir ?? (modelName ? undefined : DEFAULT_MODEL_DIR),
    modelName,
    threads: Number.isInteger(threads) && threads > 0 ? threads : availableParallelism(),
    device,
    // float16 is what GPUs are fast at; int8 on CPUs.
    computeType: env.ASR_COMPUTE_TYPE?.trim() || (device === 'cuda' ? 'float16' : 'int8'),
    // Sequential on CPU: batching 8 chunks transcribed a minute 1.3x faster on 2 cores with the
    // same WER, but misheard the first word after a pause ("back" as "mac", onset.test.ts).
    batchSize:
      Number.isInteger(batchSize) && batchSize >= 0 ? batchSize : device === 'cuda' ? 16 : 0,
    // Greedy on CPU: against Whisper's default beam of 5 it transcribed 155 s of read speech 1.5x
    // faster at the same WER (2.1% vs 2.3%) and kept the onset words (README, asr-options).
    beamSize:
      Number.isInteger(beamSize) && beamSize >= 1 && beamSize <= 10
        ? beamSize
        : device === 'cuda'
          ? 5
          : 1,
  };
}

/** Whether the local engine can run; the reason names the fix (the setup script). */
export function fasterWhisperAvailability(
  options: FasterWhisperOptions = fasterWhisperOptionsFromEnv(),
): { available: true } | { available: false; reason: string } {
  try {
    accessSync(options.executablePath, fsConstants.X_OK);
  } catch {
    return {
      available: false,
      reason: `whisper-ctranslate2 not found at ${options.executablePath}: run bash scripts/setup.sh`,
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
 * device. The reason says what is missing, for the refusal at start.
 */
export async function cudaAvailability(
  options: Pick<FasterWhisperOptions, 'executablePath'> = fasterWhisperOptionsFromEnv(),
): Promise<{ available: true } | { available: false; reason: string }> {
  const python = join(dirname(options.executablePath), 'python');
  const count = await new Promise<string>((resolvePromise) => {
    execFile(
      python,
      ['-c', 'import ctranslate2; print(ctranslate2.get_cuda_device_count())'],
      { timeout: 60_000 },
      (error, stdout) =>
        resolvePromise(error ? `error: ${error.message.split('\n')[0]}` : stdout.trim()),
    );
  });
  if (/^[1-9]\d*$/.test(count)) return { available: true };
  return {
    available: false,
    reason: count.startsWith('error')
      ? `ASR_DEVICE=cuda, but the faster-whisper environment cannot be asked for a GPU (${count}): run bash scripts/setup.sh`
      : 'ASR_DEVICE=cuda, but CTranslate2 sees no CUDA GPU on this machine (needs an NVIDIA GPU with its driver and CUDA 12 libraries); unset ASR_DEVICE to transcribe on the CPU',
  };
}

// "[00:12.720 --> 00:30.040]" (hours appear from one hour on), printed once per decoded segment.
const SEGMENT_LINE = /^\[(?:(\d+):)?(\d+):(\d+(?:\.\d+)?) --> (?:(\d+):)?(\d+):(\d+(?:\.\d+)?)\]/;
const STDERR_TAIL_CHARS = 4000;

/** Local speech recognition with faster-whisper through its CLI, as PeerTube runs it. */
export class FasterWhisperEngine implements SpeechEngine {
  readonly name: string;
  private readonly options: FasterWhisperOptions;

  constructor(options: Partial<FasterWhisperOptions> = {}) {
    const defaults = fasterWhisperOptionsFromEnv();
    this.options = { ...defaults, ...options };
    if (options.modelName && !options.modelDir) delete this.options.modelDir;
    const model = this.options.modelDir
      ? basename(resolve(this.options.modelDir))
      : this.options.modelName;
    this.name = `faster-whisper:${model ?? 'unknown'}`;
  }

  async transcribe(audioFile: string, opts: TranscribeOptions = {}): Promise<Transcript> {
    const { signal, onProgress, timeoutMs } = opts;
    const language = opts.language ? checkedLanguage(opts.language) : undefined;
    signal?.throwIfAborted();
    const input = resolve(audioFile);
    const durationMs = await probeAudioDurationMs(input, signal);
    // In the run's own work folder when given, so a start-up sweep finds what a kill -9 left.
    const outputDir = await mkdtemp(join(opts.workDir ?? tmpdir(), 'moments-asr-'));
    // The loudness the word times are snapped to (below) is read while Whisper works.
    const loudnessRead = frameLoudness(input, signal).catch(() => undefined);
    try {
      await this.runCli(input, outputDir, durationMs, { language, signal, onProgress, timeoutMs });
      const json = await readOutputJson(outputDir);
      const transcript = buildTranscript(
        json.language ?? language ?? 'und',
        durationMs,
        json.segments,
      );
      // Whisper lets words at a pause swallow the silence; clips start at words, so put them on the speech.
      const loudness = await loudnessRead;
      signal?.throwIfAborted();
      onProgress?.(1);
      return loudness ? snapWordsToSpeech(transcript, loudness) : transcript;
    } finally {
      await loudnessRead; // settled (never rejects): no ffmpeg outlives the call
      await rm(outputDir, { recursive: true, force: true });
    }
  }

  private cliArguments(input: string, outputDir: string, language: string | undefined): string[] {
    const { modelDir, modelName, threads, computeType, device, batchSize, beamSize } = this.options;
    const model = modelDir
      ? ['--model_directory', modelDir]
      : ['--model', modelName ?? 'base', '--model_dir', join(TOOLS_DIR, 'models', 'hub')];
    return [
      ...model,
      '--device',
      device,
      '--compute_type',
      computeType,
      '--threads',
      String(threads),
      // VAD skips silence and music: fewer hallucinated words, faster on long videos.
      '--vad_filter',
      'True',
      ...(batchSize > 0 ? ['--batched', 'True', '--batch_size', String(batchSize)] : []),
      '--beam_size',
      String(beamSize),
      '--word_timestamps',
      'True',
      '--output_format',
      'json',
      '--output_dir',
      outputDir,
      '--verbose',
      'True',
      ...(language ? ['--language', language] : []),
      // The path is absolute, and "--" ends options anyway: a file name never becomes a flag.
      '--',
      input,
    ];
  }

  private async runCli(
    input: string,
    outputDir: string,
    durationMs: number,
    opts: {
      language?: string;
      signal?: AbortSignal;
      onProgress?: (f: number) => void;
      timeoutMs?: number;
    },
  ): Promise<void> {
    const { signal, onProgress, timeoutMs } = opts;
    // Its own process group (packages/media/process): a timeout or cancel stops the workers too.
    const started = startProcess(
      this.options.executablePath,
      this.cliArguments(input, outputDir, opts.language),
      {
        env: {
          ...process.env,
          PYTHONUNBUFFERED: '1', // progress lines as they happen, not at exit
          ...(this.options.modelDir ? { HF_HUB_OFFLINE: '1' } : {}),
        },
        timeoutMs,
        signal,
        killGraceMs: 3000,
        stderrTailBytes: STDERR_TAIL_CHARS,
      },
    );
    let lastFraction = 0;
    let pending = '';
    started.child.stdout?.setEncoding('utf8');
    started.child.stdout?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = SEGMENT_LINE.exec(line);
        if (!match || !onProgress) continue;
        const endMs =
          (Number(match[4] ?? 0) * 3600 + Number(match[5]) * 60 + Number(match[6])) * 1000;
        const fraction = Math.min(0.99, endMs / durationMs);
        if (fraction > lastFraction) {
          lastFraction = fraction;
          onProgress(fraction);
        }
      }
    });
    const { exitCode, stopReason, spawnError, stderrTail } = await started.exited;
    if (spawnError) {
      const code = (spawnError as NodeJS.ErrnoException).code;
      throw code === 'ENOENT' || code === 'EACCES'
        ? new SpeechRecognitionError(
            `whisper-ctranslate2 not found at ${this.options.executablePath}: run bash scripts/setup.sh`,
            'engine_missing',
            { cause: spawnError },
          )
        : new SpeechRecognitionError(
            `whisper-ctranslate2 failed to start: ${spawnError.message}`,
            'engine_failed',
            { cause: spawnError },
          );
    }
    if (stopReason === 'aborted' || stopReason === 'stopped') {
      throw new SpeechRecognitionError('transcription aborted', 'aborted', {
        cause: signal?.reason,
      });
    }
    if (stopReason === 'timeout') {
      throw new SpeechRecognitionError(`transcription took longer than ${timeoutMs} ms`, 'timeout');
    }
    if (exitCode !== 0) {
      throw new SpeechRecognitionError(
        `whisper-ctranslate2 exited with ${exitCode}: ${stderrTail.trim().split('\n').slice(-5).join('\n')}`,
        'engine_failed',
      );
    }
  }
}

interface CliJson {
  language?: string;
  segments: RawSegment[];
}

async function readOutputJson(outputDir: string): Promise<CliJson> {
  const jsonFile = (await readdir(outputDir)).find((name) => name.endsWith('.json'));
  if (!jsonFile)
    throw new SpeechRecognitionError('whisper-ctranslate2 wrote no JSON output', 'engine_failed');
  const parsed = JSON.parse(await readFile(join(outputDir, jsonFile), 'utf8')) as {
    language?: string;
    segments?: {
      start: number;
      end: number;
      text: string;
      words?: { word: string; start: number; end: number; probability?: number }[];
    }[];
  };
  return {
    language: parsed.language,
    segments: (parsed.segments ?? []).map((segment) => ({
      start: segment.start,
      end: segment.end,
      text: segment.text,
      words: (segment.words ?? []).map((w) => ({
        text: w.word,
        start: w.start,
        end: w.end,
        confidence: w.probability,
      })),
    })),
  };
}

function checkedLanguage(language: string): string {
  const code = toLanguageCode(language);
  if (!code) throw new SpeechRecognitionError(`unsupported language "${language}"`, 'bad_input');
  return code;
}
