import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeAudioDurationMs } from './audio-duration';
import { toLanguageCode } from './languages';
import type { SpeechEngine, TranscribeOptions, Transcript } from './types';
import { SpeechRecognitionError } from './types';
import { buildTranscript, type RawSegment } from './word-timing';

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
}

type Env = Record<string, string | undefined>;

export function fasterWhisperOptionsFromEnv(env: Env = process.env): FasterWhisperOptions {
  const threads = Number.parseInt(env.ASR_THREADS ?? '', 10);
  const modelDir = env.ASR_MODEL_DIR?.trim() || undefined;
  const modelName = modelDir ? undefined : env.ASR_MODEL?.trim() || undefined;
  return {
    executablePath: env.WHISPER_CTRANSLATE2_PATH?.trim() || DEFAULT_WHISPER_EXECUTABLE,
    modelDir: modelDir ?? (modelName ? undefined : DEFAULT_MODEL_DIR),
    modelName,
    threads: Number.isInteger(threads) && threads > 0 ? threads : availableParallelism(),
    computeType: env.ASR_COMPUTE_TYPE?.trim() || 'int8',
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
    const outputDir = await mkdtemp(join(tmpdir(), 'moments-asr-'));
    try {
      await this.runCli(input, outputDir, durationMs, { language, signal, onProgress, timeoutMs });
      const json = await readOutputJson(outputDir);
      const transcript = buildTranscript(
        json.language ?? language ?? 'und',
        durationMs,
        json.segments,
      );
      onProgress?.(1);
      return transcript;
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  }

  private cliArguments(input: string, outputDir: string, language: string | undefined): string[] {
    const { modelDir, modelName, threads, computeType } = this.options;
    const model = modelDir
      ? ['--model_directory', modelDir]
      : ['--model', modelName ?? 'base', '--model_dir', join(TOOLS_DIR, 'models', 'hub')];
    return [
      ...model,
      '--device',
      'cpu',
      '--compute_type',
      computeType,
      '--threads',
      String(threads),
      // VAD skips silence and music: fewer hallucinated words, faster on long videos.
      '--vad_filter',
      'True',
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

  private runCli(
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
    return new Promise<void>((resolvePromise, reject) => {
      const child = spawn(
        this.options.executablePath,
        this.cliArguments(input, outputDir, opts.language),
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            ...process.env,
            PYTHONUNBUFFERED: '1', // progress lines as they happen, not at exit
            ...(this.options.modelDir ? { HF_HUB_OFFLINE: '1' } : {}),
          },
        },
      );
      let stderrTail = '';
      let stopReason: 'aborted' | 'timeout' | undefined;
      let lastFraction = 0;
      let pending = '';

      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
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
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
      });

      let killTimer: NodeJS.Timeout | undefined;
      const stop = (reason: 'aborted' | 'timeout') => {
        if (stopReason) return;
        stopReason = reason;
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
      };
      const onAbort = () => stop('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      const timeoutTimer = timeoutMs ? setTimeout(() => stop('timeout'), timeoutMs) : undefined;
      const cleanUp = () => {
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timeoutTimer);
        clearTimeout(killTimer);
      };

      child.on('error', (error: NodeJS.ErrnoException) => {
        cleanUp();
        reject(
          error.code === 'ENOENT' || error.code === 'EACCES'
            ? new SpeechRecognitionError(
                `whisper-ctranslate2 not found at ${this.options.executablePath}: run bash scripts/setup.sh`,
                'engine_missing',
                { cause: error },
              )
            : new SpeechRecognitionError(
                `whisper-ctranslate2 failed to start: ${error.message}`,
                'engine_failed',
                {
                  cause: error,
                },
              ),
        );
      });
      child.on('close', (code, killedBy) => {
        cleanUp();
        if (stopReason === 'aborted') {
          reject(
            new SpeechRecognitionError('transcription aborted', 'aborted', {
              cause: signal?.reason,
            }),
          );
        } else if (stopReason === 'timeout') {
          reject(
            new SpeechRecognitionError(`transcription took longer than ${timeoutMs} ms`, 'timeout'),
          );
        } else if (code !== 0) {
          reject(
            new SpeechRecognitionError(
              `whisper-ctranslate2 exited with ${code ?? killedBy}: ${stderrTail.trim().split('\n').slice(-5).join('\n')}`,
              'engine_failed',
            ),
          );
        } else {
          resolvePromise();
        }
      });
    });
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
