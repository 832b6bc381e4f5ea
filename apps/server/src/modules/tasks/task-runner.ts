import { ERROR_CODES } from '@moments/contract';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskStage, VideoMeta } from '@moments/contract';
import { creditCostForDuration } from '@moments/domain';
import type { SpeechEngine, Transcript } from '@moments/ai/asr';
import { extractAudioForAsr, probeMedia } from '@moments/media/probe';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/index.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { MediaFetcher } from './media-fetcher.js';
import { userFacingReason } from './failure-reasons.js';
import type { TaskRow } from './task-mapper.js';
import { LeasedRun, RunSuperseded } from '../../jobs/leased-run.js';
import type { TaskPatch, TasksRepository } from './tasks.repository.js';

/** Hooks other modules attach to a task's life (notifications, moment analysis). */
export interface TaskHooks {
  /** Called after every status change, and at most about once a second for progress. */
  onTaskChanged(task: TaskRow, change: { statusChanged: boolean }): Promise<void> | void;
  /** The analysing stage (moment finding or search); returns what the user should be told. */
  analyse?(task: TaskRow, transcript: Transcript, signal: AbortSignal): Promise<string[]>;
}

export interface TaskRunnerOptions {
  workRoot: string;
  heartbeatMs: number;
  downloadTimeoutMs: number;
  /** Transcription may take this many times the media duration (at least 10 minutes). */
  transcribeTimeoutFactor: number;
  analyseTimeoutMs: number;
}

/** Progress bands per stage, so the bar only moves forward across stages. */
const STAGE_BANDS: Record<TaskStage, [number, number]> = {
  queued: [0, 0],
  downloading: [1, 30],
  probing: [30, 32],
  transcribing: [32, 85],
  analysing: [85, 99],
  finishing: [99, 100],
};

/**
 * Runs one task through its stages. Each stage has its own timeout; the run heart-beats so a
 * restarted server resumes it (LeaseReaper); finished stages (downloaded media, transcript) are
 * kept, so a resumed or retried run skips them. Idempotent: a duplicate delivery of the same run
 * finds the token or the status changed and does nothing.
 */
export class TaskRunner {
  private readonly running = new Map<string, LeasedRun<TaskRow, TaskPatch>>();

  constructor(
    private readonly tasks: TasksRepository,
    private readonly storage: Storage,
    private readonly fetcher: MediaFetcher,
    private readonly speech: SpeechEngine,
    private readonly credits: CreditsService,
    private readonly hooks: TaskHooks,
    private readonly options: TaskRunnerOptions,
  ) {}

  /** Stops a run in this process (task deleted or retried). */
  cancel(taskId: string) {
    this.running.get(taskId)?.cancel('cancelled');
  }

  async run(taskId: string, runToken: string): Promise<void> {
    const initial = await this.tasks.findById(taskId);
    if (!initial || initial.runToken !== runToken) return;
    if (initial.status === 'DONE' || initial.status === 'ERROR') return;

    const run = new LeasedRun<TaskRow, TaskPatch>(initial, {
      update: (patch) => this.tasks.updateRun(taskId, runToken, patch),
      progressOf: (row) => row.progress,
      onChange: (row, statusChanged) => this.hooks.onTaskChanged(row, { statusChanged }),
      heartbeatMs: this.options.heartbeatMs,
    });
    this.running.set(taskId, run);
    const stage = <T>(
      name: TaskStage,
      timeoutMs: number,
      work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
    ) => run.stage(name, STAGE_BANDS[name], timeoutMs, work, { stage: name });
    const workDir = path.join(this.options.workRoot, `task-${taskId}-${randomUUID().slice(0, 8)}`);
    const chargeKey = `task:${taskId}:${initial.attempts}`;
    try {
      await fs.mkdir(workDir, { recursive: true });
      await run.save(
        { status: 'IN_PROGRESS', errorReason: null },
        initial.status !== 'IN_PROGRESS',
      );

      let mediaKey = run.row.mediaKey;
      if (!mediaKey) {
        mediaKey = await stage(
          'downloading',
          this.options.downloadTimeoutMs,
          async (signal, progress) => {
            const fetched = await this.fetcher.fetch(run.row, workDir, {
              signal,
              onProgress: progress,
            });
            const video = { ...(run.row.video as VideoMeta), ...fetched.meta };
            await run.save({ video, mediaKey: fetched.mediaKey });
            return fetched.mediaKey;
          },
        );
      }
      const mediaFile = mediaKey;

      const info = await stage('probing', 120_000, (signal) =>
        this.storage.withLocalFile(mediaFile, (file) => probeMedia(file, { signal })),
      );
      if (!info.hasAudio) {
        throw new AppError(
          ERROR_CODES.NO_AUDIO,
          400,
          'This video has no audio track, so there is nothing to transcribe.',
        );
      }
      const cost = creditCostForDuration(info.durationMs);
      await this.credits.charge(initial.userId, 'CREDIT', cost, chargeKey, `${initial.kind} task`);
      await run.save({ durationMs: info.durationMs, costCredits: cost });

      let transcript = await this.loadTranscript(taskId);
      if (!transcript) {
        const timeout = Math.max(600_000, info.durationMs * this.options.transcribeTimeoutFactor);
        transcript = await stage('transcribing', timeout, async (signal, progress) => {
          const wav = path.join(workDir, 'audio.wav');
          await this.storage.withLocalFile(mediaFile, (file) =>
            extractAudioForAsr(file, wav, { signal }),
          );
          const language = initial.sourceLang === 'auto' ? undefined : initial.sourceLang;
          const result = await this.speech.transcribe(wav, {
            language,
            signal,
            onProgress: progress,
          });
          await this.tasks.saveTranscript({
            taskId,
            language: result.language,
            durationMs: result.durationMs,
            engine: this.speech.name,
            segments: result.segments,
          });
          return result;
        });
      }
      await run.save({ detectedLang: transcript.language });

      let warnings: string[] = [];
      const analyse = this.hooks.analyse;
      if (analyse) {
        const found = transcript;
        warnings = await stage('analysing', this.options.analyseTimeoutMs, (signal) =>
          analyse(run.row, found, signal),
        );
      }
      await run.save({ status: 'DONE', stage: 'finishing', progress: 100, warnings }, true);
    } catch (error) {
      if (error instanceof RunSuperseded) return;
      await this.credits.refund(chargeKey).catch(() => undefined);
      await run
        .save({ status: 'ERROR', errorReason: userFacingReason(error) }, true)
        .catch(() => undefined);
    } finally {
      run.stop();
      this.running.delete(taskId);
      await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async loadTranscript(taskId: string): Promise<Transcript | undefined> {
    const row = await this.tasks.findTranscript(taskId);
    if (!row) return undefined;
    return {
      language: row.language,
      durationMs: row.durationMs,
      segments: row.segments as Transcript['segments'],
    };
  }
}
