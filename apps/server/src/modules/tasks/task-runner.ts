import { storedTranscript } from '@moments/domain/transcript';
import { ERROR_CODES } from '@moments/contract';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskKind, TaskStage, VideoMeta } from '@moments/contract';
import { MAX_VIDEO_MINUTES, taskCost } from '@moments/domain';
import type { SpeechEngine, Transcript } from '@moments/ai/asr';
import { extractAudioForAsr, probeMedia } from '@moments/media/probe';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/index.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { MediaFetcher } from './media-fetcher.js';
import { isExpectedFailure, userFacingReason } from './failure-reasons.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { TaskRow } from './task-mapper.js';
import { LeasedRun, RunSuperseded } from '../../jobs/leased-run.js';
import type { TaskPatch, TasksRepository } from './tasks.repository.js';

/** Hooks other modules attach to a task's life (notifications, moment analysis). */
export interface TaskHooks {
  /** Called after every status change, and at most about once a second for progress. */
  onTaskChanged(task: TaskRow, change: { statusChanged: boolean }): Promise<void> | void;
  /** The analysing stage (moment finding or search); returns what the user should be told. */
  analyse?(task: TaskRow, transcript: Transcript, signal: AbortSignal): Promise<string[]>;
  /** The summary stage (issue 10): what the user should be told and the credits it charged. */
  summarise?(
    task: TaskRow,
    transcript: Transcript,
    signal: AbortSignal,
  ): Promise<{ warnings: string[]; costCredits: number }>;
}

export interface TaskRunnerOptions {
  workRoot: string;
  heartbeatMs: number;
  /** A run whose heart-beat is younger than this is alive: a second delivery of it is refused. */
  leaseMs: number;
  downloadTimeoutMs: number;
  /** Transcription may take this many times the media duration (at least 10 minutes). */
  transcribeTimeoutFactor: number;
  analyseTimeoutMs: number;
  /** Each run logs through a child carrying its taskId, userId and run token. */
  log?: Logger;
}

/** Each attempt of a task is charged (and refunded) under its own key. */
export const taskChargeKey = (taskId: string, attempt: number) => `task:${taskId}:${attempt}`;

/** Progress bands per stage, so the bar only moves forward across stages. */
const STAGE_BANDS: Record<TaskStage, [number, number]> = {
  queued: [0, 0],
  downloading: [1, 30],
  probing: [30, 32],
  transcribing: [32, 85],
  analysing: [85, 95],
  summary: [95, 99],
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

  /**
   * How long the queue may consider a run alive before retrying it: the sum of its stage
   * timeouts, so pg-boss never expires a run that may legally still work (duration unknown:
   * the queue's longest expiry).
   */
  expirySeconds(durationMs: number | null | undefined): number {
    if (!durationMs || durationMs <= 0) return Number.POSITIVE_INFINITY;
    const transcribeMs = Math.max(600_000, durationMs * this.options.transcribeTimeoutFactor);
    const totalMs =
      this.options.downloadTimeoutMs + 120_000 + transcribeMs + this.options.analyseTimeoutMs;
    return Math.ceil((totalMs + 10 * 60_000) / 1000);
  }

  /** Stops a run in this process (task deleted or retried). */
  cancel(taskId: string) {
    this.running.get(taskId)?.cancel('cancelled');
  }

  async run(taskId: string, runToken: string): Promise<void> {
    // Atomic claim: a stale or duplicate delivery, or one while another worker's run of the same
    // token still heart-beats (pg-boss retrying an expired job), finds nothing to claim.
    const staleBefore = new Date(Date.now() - this.options.leaseMs);
    const initial = await this.tasks.claimRun(taskId, runToken, staleBefore);
    if (!initial) return;
    const log = (this.options.log ?? silentLogger).child({
      taskId,
      userId: initial.userId,
      runToken,
      kind: initial.kind,
    });
    log.info({ attempt: initial.attempts, resumedAt: initial.stage }, 'task run started');

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
    const chargeKey = taskChargeKey(taskId, initial.attempts);
    try {
      await fs.mkdir(workDir, { recursive: true });
      await run.save(
        { status: 'IN_PROGRESS', errorReason: null },
        initial.status !== 'IN_PROGRESS',
      );

      let mediaKey = run.row.mediaKey;
      if (!mediaKey) {
        // A linked video is checked against the balance before it is downloaded, not after.
        await this.assertCreditsFor(initial);
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
      // One local copy of the source for the whole run (a download on S3), in its work folder.
      const localSource = (signal: AbortSignal) =>
        this.storage.localCopy(mediaFile, workDir, { signal });

      const info = await stage('probing', 120_000, async (signal) =>
        probeMedia(await localSource(signal), { signal }),
      );
      if (!info.hasAudio) {
        throw new AppError(
          ERROR_CODES.NO_AUDIO,
          400,
          'This video has no audio track, so there is nothing to transcribe.',
        );
      }
      // The plan's longest video (packages/domain pricing table), then the price list
      // (packages/domain credits.ts): clips and finds half, captions twice.
      const minutes = Math.ceil(info.durationMs / 60_000);
      await this.credits.assertWithinLimit(
        initial.userId,
        MAX_VIDEO_MINUTES,
        minutes,
        `This video (${minutes} min)`,
      );
      const cost = taskCost(initial.kind as TaskKind, info.durationMs);
      await this.credits.charge(initial.userId, 'CREDIT', cost, chargeKey, `${initial.kind} task`);
      await run.save({ durationMs: info.durationMs, costCredits: cost });

      let transcript = await this.loadTranscript(taskId);
      if (!transcript) {
        const timeout = Math.max(600_000, info.durationMs * this.options.transcribeTimeoutFactor);
        transcript = await stage('transcribing', timeout, async (signal, progress) => {
          const wav = path.join(workDir, 'audio.wav');
          await extractAudioForAsr(await localSource(signal), wav, { signal });
          const language = initial.sourceLang === 'auto' ? undefined : initial.sourceLang;
          const result = await this.speech.transcribe(wav, {
            language,
            signal,
            onProgress: progress,
            workDir,
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
      const summarise = this.hooks.summarise;
      if (summarise) {
        const found = transcript;
        const summary = await stage('summary', this.options.analyseTimeoutMs, (signal) =>
          summarise(run.row, found, signal),
        );
        warnings = [...warnings, ...summary.warnings];
        // The task's cost is everything it charged: processing plus its summary.
        if (summary.costCredits) await run.save({ costCredits: cost + summary.costCredits });
      }
      await run.save({ status: 'DONE', stage: 'finishing', progress: 100, warnings }, true);
      log.info({ warnings: warnings.length }, 'task done');
    } catch (error) {
      // Deleted mid-run (possibly by another process, seen as a lost token or as a write that
      // failed): refund it and remove what this run stored after the delete.
      const deleted = !(await this.tasks.findById(taskId).catch(() => initial));
      if (deleted) {
        log.info('task deleted during its run: refunded, files removed');
        await this.credits.refund(chargeKey).catch(() => undefined);
        await this.storage
          .deletePrefix(`users/${initial.userId}/tasks/${taskId}/`)
          .catch(() => undefined);
        return;
      }
      // Retried or resumed elsewhere: the new run owns the charge and the files.
      if (error instanceof RunSuperseded) {
        log.info('task run superseded by a newer run');
        return;
      }
      const failure = { stage: run.row.stage, reason: userFacingReason(error) };
      if (isExpectedFailure(error)) log.warn(failure, 'task failed');
      else log.error({ ...failure, err: error }, 'task failed unexpectedly');
      await this.credits.refund(chargeKey).catch(() => undefined);
      // Refunded: the failed task cost nothing, and says so.
      await run
        .save({ status: 'ERROR', errorReason: userFacingReason(error), costCredits: 0 }, true)
        .catch(() => undefined);
    } finally {
      run.stop();
      if (this.running.get(taskId) === run) this.running.delete(taskId);
      await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async assertCreditsFor(task: TaskRow) {
    const seconds = (task.video as VideoMeta).duration;
    const estimate = taskCost(task.kind as TaskKind, seconds && seconds > 0 ? seconds * 1000 : 0);
    const left = await this.tasks.creditsLeft(task.userId);
    if (left !== 'unlimited' && left < estimate) {
      throw new AppError(
        ERROR_CODES.BALANCE_NOT_ENOUGH,
        402,
        'Not enough credits for this video. Upgrade your plan to process it.',
      );
    }
  }

  private async loadTranscript(taskId: string): Promise<Transcript | undefined> {
    const row = await this.tasks.findTranscript(taskId);
    if (!row) return undefined;
    return storedTranscript(row);
  }
}
