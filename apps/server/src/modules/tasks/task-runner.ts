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
import type { TasksRepository } from './tasks.repository.js';

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

/** The run was taken over (task deleted, retried, or resumed elsewhere): stop quietly. */
class RunSuperseded extends Error {}

/**
 * Runs one task through its stages. Each stage has its own timeout; the run heart-beats so a
 * restarted server resumes it (TaskReaper); finished stages (downloaded media, transcript) are
 * kept, so a resumed or retried run skips them. Idempotent: a duplicate delivery of the same run
 * finds the token or the status changed and does nothing.
 */
export class TaskRunner {
  private readonly running = new Map<string, AbortController>();

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
    this.running.get(taskId)?.abort(new RunSuperseded('cancelled'));
  }

  async run(taskId: string, runToken: string): Promise<void> {
    const initial = await this.tasks.findById(taskId);
    if (!initial || initial.runToken !== runToken) return;
    if (initial.status === 'DONE' || initial.status === 'ERROR') return;

    const controller = new AbortController();
    this.running.set(taskId, controller);
    const workDir = path.join(this.options.workRoot, `task-${taskId}-${randomUUID().slice(0, 8)}`);
    let task = initial;
    let lastReport = 0;

    const save = async (
      patch: Parameters<TasksRepository['updateRun']>[2],
      statusChanged = false,
    ) => {
      const row = await this.tasks.updateRun(taskId, runToken, {
        ...patch,
        heartbeatAt: new Date(),
      });
      if (!row) throw new RunSuperseded('superseded');
      task = row;
      const now = Date.now();
      if (statusChanged || now - lastReport >= 1000) {
        lastReport = now;
        await this.hooks.onTaskChanged(row, { statusChanged });
      }
    };
    const heartbeat = setInterval(() => {
      this.tasks
        .updateRun(taskId, runToken, { heartbeatAt: new Date() })
        .then((row) => {
          if (!row) controller.abort(new RunSuperseded('superseded'));
        })
        .catch(() => undefined);
    }, this.options.heartbeatMs);

    const stage = async <T>(
      name: TaskStage,
      timeoutMs: number,
      work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
    ): Promise<T> => {
      const [from, to] = STAGE_BANDS[name];
      await save({ stage: name, progress: Math.max(task.progress, from) });
      const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]);
      let pending = Promise.resolve();
      const progress = (fraction: number) => {
        const value = from + (to - from) * Math.min(1, Math.max(0, fraction));
        if (value <= task.progress + 0.5) return;
        pending = pending.then(() => save({ progress: value })).catch(() => undefined);
      };
      try {
        const result = await work(signal, progress);
        await pending;
        return result;
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (signal.aborted) {
          throw new AppError(
            ERROR_CODES.TIMEOUT,
            504,
            `The ${name} step took longer than ${Math.round(timeoutMs / 60_000)} minutes and was stopped.`,
          );
        }
        throw error;
      }
    };

    const chargeKey = `task:${taskId}:${initial.attempts}`;
    try {
      await fs.mkdir(workDir, { recursive: true });
      await save({ status: 'IN_PROGRESS', errorReason: null }, initial.status !== 'IN_PROGRESS');

      let mediaKey = task.mediaKey;
      if (!mediaKey) {
        mediaKey = await stage(
          'downloading',
          this.options.downloadTimeoutMs,
          async (signal, progress) => {
            const fetched = await this.fetcher.fetch(task, workDir, {
              signal,
              onProgress: progress,
            });
            const video = { ...(task.video as VideoMeta), ...fetched.meta };
            await save({ video, mediaKey: fetched.mediaKey });
            return fetched.mediaKey;
          },
        );
      }

      const info = await stage('probing', 120_000, (signal) =>
        this.storage.withLocalFile(mediaKey, (file) => probeMedia(file, { signal })),
      );
      if (!info.hasAudio) {
        throw new AppError(
          ERROR_CODES.NO_AUDIO,
          400,
          'This video has no audio track, so there is nothing to transcribe.',
        );
      }
      const cost = creditCostForDuration(info.durationMs);
      await this.credits.charge(task.userId, 'CREDIT', cost, chargeKey, `${task.kind} task`);
      await save({ durationMs: info.durationMs, costCredits: cost });

      let transcript = await this.loadTranscript(taskId);
      if (!transcript) {
        const timeout = Math.max(600_000, info.durationMs * this.options.transcribeTimeoutFactor);
        transcript = await stage('transcribing', timeout, async (signal, progress) => {
          const wav = path.join(workDir, 'audio.wav');
          await this.storage.withLocalFile(mediaKey, (file) =>
            extractAudioForAsr(file, wav, { signal }),
          );
          const language = task.sourceLang === 'auto' ? undefined : task.sourceLang;
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
      await save({ detectedLang: transcript.language });

      let warnings: string[] = [];
      if (this.hooks.analyse) {
        const analyse = this.hooks.analyse;
        const current = task;
        warnings = await stage('analysing', this.options.analyseTimeoutMs, (signal) =>
          analyse(current, transcript, signal),
        );
      }
      await save({ status: 'DONE', stage: 'finishing', progress: 100, warnings }, true);
    } catch (error) {
      if (error instanceof RunSuperseded) return;
      await this.credits.refund(chargeKey).catch(() => undefined);
      const reason = userFacingReason(error);
      await save({ status: 'ERROR', errorReason: reason }, true).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
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
