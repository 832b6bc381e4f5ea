import { formatDuration } from '@moments/domain';
import { heardPastLength, speechEndMs, storedTranscript } from '@moments/domain/transcript';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskPartial, TaskStage, VideoMeta } from '@moments/contract';
import type { Transcript } from '@moments/ai/asr';
import { ERROR_CODES } from '@moments/contract';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/index.js';
import type { MediaInfo } from '@moments/media/probe';
import type { MediaRepository } from '../media/media.repository.js';
import {
  MEASURED_PROBE,
  type MediaAnalysesRepository,
} from '../exports/media-analyses.repository.js';
import type { TaskCharges } from '../billing/index.js';
import type { MediaFetcher } from './media-fetcher.js';
import { isExpectedFailure, userFacingReason } from './failure-reasons.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { TaskRow } from './task-mapper.js';
import { RunSuperseded, type LeasedRun, type Leases } from '../../queue/lease.js';
import { addRunIds } from '../../queue/run-context.js';
import { removeRunFolder } from '../../config/data-dir.js';
import type { BackgroundWork } from '../../queue/background-work.js';
import type { TaskPatch, TasksRepository } from './tasks.repository.js';
import type { ChunkedTranscription, TranscriptGrowth } from './chunked-transcription.js';

/** Hooks other modules attach to a task's life (notifications, moment analysis). */
export interface TaskHooks {
  /** Called after every status change, and at most about once a second for progress. */
  onTaskChanged(task: TaskRow, change: { statusChanged: boolean }): Promise<void> | void;
  /**
   * The transcript grew by the next chunk in order (long inputs): provisional moments
   * for the task page while the rest is still being transcribed.
   */
  transcriptGrew?(task: TaskRow, growth: TranscriptGrowth): Promise<void>;
  /** What the task page shows of a growth: the words heard and the provisional moments. */
  partial?(task: TaskRow, growth: TranscriptGrowth): Promise<TaskPartial>;
  /** The analysing stage (moment finding or search); returns what the user should be told. */
  analyse?(task: TaskRow, transcript: Transcript, signal: AbortSignal): Promise<string[]>;
  /**
   * After `analyse`: the words of the task's passages into the home search's index (quick: the
   * search finds the task by its words once it is DONE).
   */
  index?(task: TaskRow, transcript: Transcript, signal: AbortSignal): Promise<void>;
  /** The video's stored thumbnail, after probing (returns its key); never fails the task. */
  thumbnails?: {
    video(
      task: TaskRow,
      sourceFile: string,
      facts: { durationMs: number; remoteImage: string | null },
      signal: AbortSignal,
    ): Promise<string | null>;
  };
  /**
   * Just before the task is marked DONE: queues what follows its ranked moments (their pictures,
   * the search's embeddings), so that a crash once DONE is saved cannot lose it; `started` is
   * told once DONE is saved and the follow-up may begin.
   */
  followUp?(task: TaskRow): Promise<{ started(): void }>;
  /**
   * The summary stage: what the user should be told, and whether a summary was made
   * (its charge, taken with the task's, is refunded when not; `heardNothing`: because the video
   * has no speech, which the credit history says).
   */
  summarise?(
    task: TaskRow,
    transcript: Transcript,
    signal: AbortSignal,
  ): Promise<{ warnings: string[]; made: boolean; heardNothing?: boolean }>;
}

export interface TaskRunnerOptions {
  tasks: TasksRepository;
  media: MediaRepository;
  storage: Storage;
  fetcher: MediaFetcher;
  transcription: ChunkedTranscription;
  /** Recorded with a transcript when the engine does not say which model heard it. */
  engineName: string;
  /** The task's charges (modules/billing): charged at start or after probing, refunded on failure. */
  charges: TaskCharges;
  hooks: TaskHooks;
  workRoot: string;
  /** Claims, heart-beats and releases each run (queue/lease.ts). */
  leases: Leases<TaskRow, TaskPatch>;
  downloadTimeoutMs: number;
  /** Transcription may take this many times the media duration (at least 10 minutes). */
  transcribeTimeoutFactor: number;
  analyseTimeoutMs: number;
  /** Runs are tracked background work: the process's close stops and awaits them. */
  background: BackgroundWork;
  /**
   * A source's facts measured before (an upload's validation, an earlier run), kept per stored
   * file: a stored file never changes, so its probing reads them instead of every packet again.
   */
  analyses?: Pick<MediaAnalysesRepository, 'find' | 'save'>;
  /** Each run logs through a child carrying its taskId, userId and run token. */
  log?: Logger;
}

/**
 * The probing stage copies the source out of storage and reads all of its packets for the real
 * length (about 2 s per 70 minutes of 720p when cached, a minute or more for the largest upload
 * read from disk), then picks the thumbnail.
 */
const PROBE_TIMEOUT_MS = 10 * 60_000;

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

/** One run of a task, as its steps see it. */
interface RunContext {
  initial: TaskRow;
  run: LeasedRun<TaskRow, TaskPatch>;
  log: Logger;
  workDir: string;
  stage<T>(
    name: TaskStage,
    timeoutMs: number,
    work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
  ): Promise<T>;
  localSource(signal: AbortSignal): Promise<string>;
  /** Work started beside the stages (the video's picture), awaited before the task is DONE. */
  beside: Promise<void>[];
}

/**
 * Runs one task through its stages. Each stage has its own timeout; the run heart-beats so a
 * restarted server resumes it (Leases); finished stages (downloaded media, transcript) are
 * kept, so a resumed or retried run skips them. Idempotent: a duplicate delivery of the same run
 * finds the token or the status changed and does nothing.
 */
export class TaskRunner {
  constructor(private readonly options: TaskRunnerOptions) {}

  /**
   * How long the queue may consider a run alive before retrying it: the sum of its stage
   * timeouts, so pg-boss never expires a run that may legally still work (duration unknown:
   * the queue's longest expiry).
   */
  expirySeconds(durationMs: number | null | undefined): number {
    if (!durationMs || durationMs <= 0) return Number.POSITIVE_INFINITY;
    const transcribeMs = Math.max(600_000, durationMs * this.options.transcribeTimeoutFactor);
    const totalMs =
      this.options.downloadTimeoutMs +
      PROBE_TIMEOUT_MS +
      transcribeMs +
      this.options.analyseTimeoutMs;
    return Math.ceil((totalMs + 10 * 60_000) / 1000);
  }

  /** Stops a run in this process (task deleted or retried). */
  cancel(taskId: string) {
    this.options.leases.cancel(taskId);
  }

  /**
   * Runs the `task-run` job as tracked background work: refused once the process closes
   * (the queue retries it later), stopped by the close and left resumable.
   */
  run(taskId: string, runToken: string): Promise<void> {
    return this.options.background.run((closing) => this.runTracked(taskId, runToken, closing));
  }

  private async runTracked(taskId: string, runToken: string, closing: AbortSignal): Promise<void> {
    const initial = await this.options.leases.claim(taskId, runToken);
    if (!initial) return;
    const ctx = this.startRun(initial, runToken, closing);
    const { run, log, workDir } = ctx;
    try {
      // Whisper starts and loads its model while the video is fetched and probed.
      if (!initial.reusesTranscript) this.options.transcription.warm();
      await fs.mkdir(workDir, { recursive: true });
      await run.save(
        { status: 'IN_PROGRESS', errorReason: null },
        initial.status !== 'IN_PROGRESS',
      );
      const remoteImage = await this.download(ctx);
      const info = await this.probe(ctx, remoteImage);
      await this.charge(ctx, info);
      const transcript = await this.transcribe(ctx, info);
      await run.save({ detectedLang: transcript.language });
      const warnings = [
        ...(await this.analyse(ctx, transcript)),
        ...(await this.summarise(ctx, transcript)),
      ];
      await Promise.all(ctx.beside);
      await removeRunFolder(workDir);
      const followUp = await this.options.hooks.followUp?.(run.row);
      await run.save({ status: 'DONE', stage: 'finishing', progress: 100, warnings }, true);
      followUp?.started();
      log.info({ warnings: warnings.length }, 'task done');
    } catch (error) {
      await removeRunFolder(workDir);
      await this.settleFailure(error, { initial, run, log });
    } finally {
      await Promise.allSettled(ctx.beside);
      await this.options.leases.release(taskId, run);
      await removeRunFolder(workDir);
    }
  }

  /** The run's lease, logger and work folder, and the stage runner every step goes through. */
  private startRun(initial: TaskRow, runToken: string, closing: AbortSignal): RunContext {
    const taskId = initial.id;
    addRunIds({ userId: initial.userId });
    const log = (this.options.log ?? silentLogger).child({
      taskId,
      userId: initial.userId,
      runToken,
      kind: initial.kind,
    });
    log.info({ attempt: initial.attempts, resumedAt: initial.stage }, 'task run started');
    const run = this.options.leases.hold(initial, runToken, {
      onChange: (row, statusChanged) => this.options.hooks.onTaskChanged(row, { statusChanged }),
      closing,
    });
    const workDir = path.join(this.options.workRoot, `task-${taskId}-${randomUUID().slice(0, 8)}`);
    return {
      initial,
      run,
      log,
      workDir,
      stage: async (name, timeoutMs, work) => {
        const started = performance.now();
        const result = await run.stage(name, STAGE_BANDS[name], timeoutMs, work, { stage: name });
        log.info({ stage: name, ms: Math.round(performance.now() - started) }, 'task stage done');
        return result;
      },
      beside: [],
      // One local copy of the source for the whole run (a download on S3), in its work folder.
      localSource: (signal) =>
        this.options.storage.localCopy(run.row.mediaKey!, workDir, { signal }),
    };
  }

  /** A link's video into storage (skipped once stored); answers the page's preview image. */
  private async download({ run, workDir, stage }: RunContext): Promise<string | null> {
    if (run.row.mediaKey) return null;
    // The link page's preview image, fetched (through the link guard) for the thumbnail.
    let remoteImage: string | null = null;
    await stage('downloading', this.options.downloadTimeoutMs, async (signal, progress) => {
      const fetched = await this.options.fetcher.fetch(run.row, workDir, {
        signal,
        onProgress: progress,
      });
      const video = { ...(run.row.video as VideoMeta), ...fetched.meta };
      remoteImage = fetched.remoteImage ?? null;
      await run.save({ video, mediaKey: fetched.mediaKey });
    });
    return remoteImage;
  }

  /**
   * What the source holds, its length measured from its packets, and the video's thumbnail; a
   * video without sound is refused.
   */
  private async probe(ctx: RunContext, remoteImage: string | null): Promise<MediaInfo> {
    const { run, log, stage, localSource } = ctx;
    const thumbnails = this.options.hooks.thumbnails;
    const info = await stage('probing', PROBE_TIMEOUT_MS, async (signal) => {
      const source = await localSource(signal);
      const probed = await this.measured(run.row.mediaKey!, source, signal);
      const { headerDurationMs, durationMs } = probed;
      // Worth a look in the logs: a header far short of the packets is how a file is made to
      // pass for a shorter one (a second apart is ordinary rounding; browser recordings state
      // no length at all).
      if (headerDurationMs && durationMs - headerDurationMs > 1000) {
        log.warn({ headerDurationMs, durationMs }, 'the header understates the length');
      }
      if (thumbnails && !run.row.thumbnailKey && probed.hasVideo) {
        // Beside the transcription (it needs nothing the picture gives): awaited before DONE.
        const facts = { durationMs: probed.durationMs, remoteImage };
        const picture = run.controller.signal;
        ctx.beside.push(
          thumbnails
            .video(run.row, source, facts, picture)
            .then(async (thumbnailKey) => {
              if (thumbnailKey) await run.save({ thumbnailKey });
            })
            // A run superseded meanwhile finds out by its own next write.
            .catch((err: unknown) => {
              if (!(err instanceof RunSuperseded)) log.warn({ err }, 'video thumbnail not saved');
            }),
        );
      }
      // Audio only: no frame will ever come, so the thumbnail backfill leaves it be.
      if (!probed.hasVideo) await run.save({ framelessReason: 'audio-only' });
      return probed;
    });
    if (!info.hasAudio) {
      throw new AppError(
        ERROR_CODES.NO_AUDIO,
        422,
        'This video has no audio track, so there is nothing to transcribe.',
      );
    }
    return info;
  }

  /** The source's facts, its length from its packets: kept from before, or measured and kept. */
  private async measured(mediaKey: string, source: string, signal: AbortSignal) {
    const { analyses, media } = this.options;
    const kept = await analyses?.find<MediaInfo>(mediaKey, 'probe', MEASURED_PROBE);
    if (kept) return kept;
    const probed = await media.measure(source, { signal });
    await analyses?.save(mediaKey, 'probe', MEASURED_PROBE, probed);
    return probed;
  }

  private async charge({ initial, run }: RunContext, info: MediaInfo): Promise<void> {
    // The measured length first (and shown as the video's), so that a Retry of a task the
    // balance could not cover is refused at start (with the credits dialog) instead of
    // downloading the video again to fail the same way, and is priced by the real length.
    const video = { ...(run.row.video as VideoMeta), duration: info.durationMs / 1000 };
    await run.save({ durationMs: info.durationMs, video });
    // The plan's longest video, then the charge of the one cost function (packages/domain
    // taskQuote): already taken at start when the length was known, a no-op then.
    const quote = await this.options.charges.charge(initial, info.durationMs);
    // What was taken at start followed the length known then (an upload stored before lengths
    // were measured, the task a follow-up copies it from): the work never runs on less than its
    // real length costs. Nothing is charged in the end, and a Retry charges the measured length.
    const startMs = initial.durationMs;
    if (startMs != null && this.options.charges.quote(initial, startMs).total < quote.total) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        `This video is ${formatDuration(info.durationMs)} long, longer than the ${formatDuration(startMs)} it was charged for when it started. Nothing was charged: retry to process it at its real length.`,
      );
    }
    // What the task shows is what the ledger holds for it, every run together: a task run again
    // shows both runs, as the credit history does.
    await run.save({ costCredits: await this.options.charges.shownCost(initial.id) });
  }

  /** The transcript: kept from an earlier run, or heard now and stored. */
  private async transcribe(ctx: RunContext, info: MediaInfo): Promise<Transcript> {
    const { initial, run, log, workDir, stage, localSource } = ctx;
    const taskId = initial.id;
    const kept = await this.loadTranscript(taskId);
    if (kept) return assertHeardWithin(kept, info.durationMs);
    const timeout = Math.max(600_000, info.durationMs * this.options.transcribeTimeoutFactor);
    return stage('transcribing', timeout, async (signal, progress) => {
      const wav = path.join(workDir, 'audio.wav');
      const started = performance.now();
      // No more sound is heard than the length paid for, whatever the file holds past it.
      await this.options.media.extractAudio(await localSource(signal), wav, {
        signal,
        maxDurationMs: info.durationMs,
      });
      log.info({ ms: Math.round(performance.now() - started) }, 'audio extracted');
      const language = initial.sourceLang === 'auto' ? undefined : initial.sourceLang;
      const grew = this.options.hooks.transcriptGrew;
      const result = await this.options.transcription.transcribe(run.row, wav, {
        language,
        signal,
        onProgress: progress,
        onGrowth: grew && ((growth) => grew(run.row, growth)),
        workDir,
      });
      assertHeardWithin(result, info.durationMs);
      await this.options.tasks.saveTranscript({
        taskId,
        language: result.language,
        durationMs: result.durationMs,
        engine: result.engine ?? this.options.engineName,
        segments: result.segments,
      });
      await this.options.transcription
        .cleanUp(run.row)
        .catch((err: unknown) => log.warn({ err }, 'could not remove the chunk audio'));
      return result;
    });
  }

  /**
   * The moments (or search) and the words of the search index; answers what the user should be
   * told. The moments' pictures and the search's embeddings follow once DONE (`followUp`).
   */
  private async analyse(
    { run, log, stage }: RunContext,
    transcript: Transcript,
  ): Promise<string[]> {
    const analyse = this.options.hooks.analyse;
    if (!analyse) return [];
    return stage('analysing', this.options.analyseTimeoutMs, async (signal) => {
      const started = performance.now();
      const told = await analyse(run.row, transcript, signal);
      const analysedAt = performance.now();
      await this.options.hooks.index?.(run.row, transcript, signal);
      log.info(
        {
          analyseMs: Math.round(analysedAt - started),
          indexWordsMs: Math.round(performance.now() - analysedAt),
        },
        'moments analysed',
      );
      return told;
    });
  }

  /** The summary; refunds its charge when none could be made. */
  private async summarise(
    { initial, run, stage }: RunContext,
    transcript: Transcript,
  ): Promise<string[]> {
    const summarise = this.options.hooks.summarise;
    // A follow-up on a transcribed video keeps its root's summary and paid only its run.
    if (!summarise || initial.reusesTranscript) return [];
    const summary = await stage('summary', this.options.analyseTimeoutMs, (signal) =>
      summarise(run.row, transcript, signal),
    );
    if (!summary.made) {
      await this.options.charges.refundUnmadeSummary(initial, summary);
      await run.save({ costCredits: await this.options.charges.shownCost(initial.id) });
    }
    return summary.warnings;
  }

  /**
   * After a run stopped early: a deleted task is refunded and its files removed; a superseded (or
   * shut down) run leaves everything to the run that follows; a failed one ends ERROR with a
   * reason the user can read, refunded.
   */
  private async settleFailure(
    error: unknown,
    context: { initial: TaskRow; run: LeasedRun<TaskRow, TaskPatch>; log: Logger },
  ): Promise<void> {
    const { initial, run, log } = context;
    const taskId = initial.id;
    // Deleted mid-run (possibly by another process, seen as a lost token or as a write that
    // failed): refund it and remove what this run stored after the delete.
    const deleted = !(await this.options.tasks.findById(taskId).catch(() => initial));
    if (deleted) {
      log.info('task deleted during its run: refunded, files removed');
      const reused =
        initial.rootTaskId === null && (await this.options.tasks.transcriptReused(initial.id));
      await this.options.charges.refundDeleted(initial, reused);
      await this.options.storage
        .deletePrefix(`users/${initial.userId}/tasks/${taskId}/`)
        .catch((err: unknown) =>
          log.warn({ err }, 'files of a deleted task could not be removed; left behind'),
        );
      return;
    }
    // Retried or resumed elsewhere (or stopped by a shutdown): the next run owns charge and files.
    if (error instanceof RunSuperseded) {
      log.info(`task run stopped: ${error.message}`);
      return;
    }
    const failure = { stage: run.row.stage, reason: userFacingReason(error) };
    if (isExpectedFailure(error)) log.warn(failure, 'task failed');
    else log.error({ ...failure, err: error }, 'task failed unexpectedly');
    await this.options.charges.refundAttempt(initial);
    // What the ledger still holds: 0 once refunded, the charge while a refund is pending.
    const costCredits = await this.options.charges
      .shownCost(taskId)
      .catch(() => run.row.costCredits);
    await run
      .save({ status: 'ERROR', errorReason: userFacingReason(error), costCredits }, true)
      .catch((saveError: unknown) =>
        log.error({ err: saveError }, 'could not mark the failed task ERROR'),
      );
  }

  private async loadTranscript(taskId: string): Promise<Transcript | undefined> {
    const row = await this.options.tasks.findTranscript(taskId);
    if (!row) return undefined;
    return storedTranscript(row);
  }
}

/**
 * The transcript back, unless it proves the file longer than its measured length (speech past
 * the end): such a file holds more than was priced, so the task stops there, refunded, with the
 * reason.
 */
function assertHeardWithin(transcript: Transcript, lengthMs: number): Transcript {
  if (heardPastLength(transcript.segments, lengthMs)) {
    throw new AppError(
      ERROR_CODES.CORRUPT_MEDIA,
      422,
      `Speech was heard until ${formatDuration(speechEndMs(transcript.segments))}, past the end of this video at ${formatDuration(lengthMs)}: the file misstates its length, so it was not processed. Nothing was charged; a copy saved again by a video editor will work.`,
    );
  }
  return transcript;
}
