import { storedTranscript } from '@moments/domain/transcript';
import { uprightFrameSize } from '@moments/domain/frame';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Translator } from '@moments/ai/translate';
import { probeMedia } from '@moments/media/probe';
import type { DetectedStretch, Size } from '@moments/media/reframe';
import { AppError } from '../../http/errors.js';
import { StorageNotFoundError, type Storage } from '../../storage/index.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { isExpectedFailure, userFacingReason } from '../tasks/failure-reasons.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import { keptSpans } from '@moments/domain/captions';
import { retimeWords } from '@moments/media/captions';
import {
  buildClipCaptions,
  wordsInSpan,
  type ResolvedClipOptions,
  type StoredTranscript,
} from './clip-captions.js';
import {
  measureLoudness,
  renderClip,
  type ClipFraming,
  type LoudnessMeasure,
  type VideoEncoderSettings,
  type FramingRequest,
} from './clip-render.js';
import { FramingPlanner } from './clip-framing.js';
import type { MediaAnalysesRepository } from './media-analyses.repository.js';
import type { ExportsRepository, JobPatch, JobRow } from './exports.repository.js';
import { LeasedRun, RunSuperseded } from '../../jobs/leased-run.js';
import { chargeKey, jobCaptionsKey, jobFileKey, jobForNotification } from './job-mapper.js';

export interface ExportRendererOptions {
  workRoot: string;
  heartbeatMs: number;
  /** A run whose heart-beat is younger than this is alive: a second delivery of it is refused. */
  leaseMs: number;
  /** Where framing plans and loudness measures are kept across processes; absent: per process. */
  analyses?: MediaAnalysesRepository;
  /** The video encoder and its threads (VIDEO_ENCODER, the worker's share of the cores). */
  encoder?: VideoEncoderSettings;
  /** Each render logs through a child carrying its jobId and userId. */
  log?: Logger;
}

/** A job's stored options: the resolved request, and the framing plan once it is known. */
export type JobOptions = ResolvedClipOptions & { framing?: ClipFraming };

/** What the framing of a clip depends on; the export and the preview ask with the same request. */
export function framingRequestOf(
  options: ResolvedClipOptions,
  source: Size,
  output: Size,
): FramingRequest {
  return {
    aspect: options.aspect,
    quality: options.quality,
    layout: options.layout,
    startMs: options.startMs,
    endMs: options.endMs,
    source,
    output: { width: output.width, height: output.height },
  };
}

/** Progress bands per stage, so the bar only moves forward. */
const STAGES = {
  preparing: { band: [0, 3], timeoutMs: () => 10 * 60_000 },
  // Face analysis decodes the span once and looks at a few frames a second.
  analysing: { band: [3, 30], timeoutMs: (clipMs: number) => Math.max(5 * 60_000, clipMs * 4) },
  rendering: { band: [30, 98], timeoutMs: (clipMs: number) => Math.max(10 * 60_000, clipMs * 8) },
  storing: { band: [98, 100], timeoutMs: () => 10 * 60_000 },
} as const;
type Stage = keyof typeof STAGES;

/**
 * The `export-render` job: one ffmpeg pass from the stored source to the finished MP4. Runs under
 * a run token like tasks: a duplicate or stale delivery does nothing, a job whose worker died is
 * resumed by the export LeaseReaper with a new token (the render starts over; nothing half-made is kept).
 */
export class ExportRenderer {
  private readonly running = new Map<string, LeasedRun<JobRow, JobPatch>>();
  /** Shared with the editor's framing preview (ExportsService), so both use one plan. */
  readonly framing: FramingPlanner;

  constructor(
    private readonly jobs: ExportsRepository,
    private readonly tasks: TasksRepository,
    private readonly storage: Storage,
    private readonly credits: CreditsService,
    private readonly notifications: NotificationsService,
    private readonly translator: Translator,
    private readonly options: ExportRendererOptions,
  ) {
    const analyses = options.analyses;
    this.framing = new FramingPlanner(
      analyses && {
        find: (mediaKey, key) => analyses.find<ClipFraming>(mediaKey, 'framing', key),
        save: (mediaKey, key, framing) => analyses.save(mediaKey, 'framing', key, framing),
        // One row per analysed stretch, keyed by how it was sampled and the times it covers.
        findDetections: (mediaKey, settings) =>
          analyses.list<DetectedStretch>(mediaKey, 'faces', `${settings}|`),
        saveDetections: (mediaKey, stretch) =>
          analyses.save(
            mediaKey,
            'faces',
            `${stretch.settings}|${stretch.startMs}-${stretch.endMs}`,
            stretch,
          ),
      },
      options.workRoot,
    );
  }

  /**
   * The loudness of a span, measured once and kept: a second export of the same moment (another
   * template, a translation) reuses it instead of decoding the audio again.
   */
  private async loudnessOf(
    mediaKey: string,
    sourceFile: string,
    startMs: number,
    endMs: number,
    signal: AbortSignal,
  ): Promise<LoudnessMeasure | undefined> {
    const analyses = this.options.analyses;
    const spanKey = `${startMs}-${endMs}`;
    const stored = await analyses?.find<{ measure: LoudnessMeasure | null }>(
      mediaKey,
      'loudness',
      spanKey,
    );
    if (stored) return stored.measure ?? undefined;
    const measure = await measureLoudness(sourceFile, startMs, endMs, signal);
    await analyses?.save(mediaKey, 'loudness', spanKey, { measure: measure ?? null });
    return measure;
  }

  /** The sum of the stage timeouts of a clip this long: the queue expiry of its render job. */
  static expirySeconds(clipMs: number): number {
    const totalMs = Object.values(STAGES).reduce((sum, stage) => sum + stage.timeoutMs(clipMs), 0);
    return Math.ceil((totalMs + 10 * 60_000) / 1000);
  }

  /** Stops a render in this process (job deleted). */
  cancel(jobId: string) {
    this.running.get(jobId)?.cancel('cancelled');
  }

  async run(jobId: string, runToken: string): Promise<void> {
    // Atomic claim: a stale or duplicate delivery, or one while another worker's run of the same
    // token still heart-beats (pg-boss retrying an expired job), finds nothing to claim.
    const staleBefore = new Date(Date.now() - this.options.leaseMs);
    const initial = await this.jobs.claimRun(jobId, runToken, staleBefore);
    if (!initial) return;
    const log = (this.options.log ?? silentLogger).child({
      jobId,
      userId: initial.userId,
      taskId: initial.taskId,
      runToken,
      type: initial.type,
    });
    log.info('export render started');

    const run = new LeasedRun<JobRow, JobPatch>(initial, {
      update: (patch) => this.jobs.updateRun(jobId, runToken, patch),
      progressOf: (row) => row.progress,
      onChange: (row, final) =>
        this.notifications
          .jobChanged(row.userId, jobForNotification(row), final)
          .catch(() => undefined),
      heartbeatMs: this.options.heartbeatMs,
    });
    this.running.set(jobId, run);
    const save = (patch: JobPatch, final = false) => run.save(patch, final);
    const workDir = path.join(this.options.workRoot, `job-${jobId}-${randomUUID().slice(0, 8)}`);
    const options = initial.options as JobOptions;
    const clipMs = options.endMs - options.startMs;
    let currentStage: Stage | undefined;
    const stage = <T>(
      name: Stage,
      work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
    ) => {
      currentStage = name;
      return run.stage(name, STAGES[name].band, STAGES[name].timeoutMs(clipMs), work);
    };

    try {
      await fs.mkdir(workDir, { recursive: true });
      const { task, transcript } = await this.loadSource(initial);
      const outputFile = path.join(workDir, 'clip.mp4');
      const assFile = path.join(workDir, 'captions.ass');

      const prepared = await stage('preparing', async (signal) => {
        // S3: one copy of the source in this run's folder, stopped by the run's abort (issue 14
        // defect 7); the local driver hands its own file.
        const sourceFile = await this.storage.localCopy(task.mediaKey, workDir, { signal });
        const info = await probeMedia(sourceFile, { signal });
        if (!info.width || !info.height) {
          throw new AppError('NOT_A_VIDEO', 400, 'The source of this clip has no picture.');
        }
        const source = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
        const captions = await buildClipCaptions(
          transcript,
          options,
          source,
          this.translator,
          signal,
        );
        await fs.writeFile(assFile, captions.ass, 'utf8');
        const loudness = info.hasAudio
          ? await this.loudnessOf(task.mediaKey, sourceFile, options.startMs, options.endMs, signal)
          : undefined;
        return { sourceFile, info, source, captions, loudness };
      });

      // The plan the editor previewed (attached when the job was made) is the plan rendered;
      // otherwise the planner makes it (or joins a preview's analysis under way) and it is kept
      // on the job, so the job always records the framing its file has.
      let framing = options.framing;
      if (!framing) {
        const request = framingRequestOf(options, prepared.source, prepared.captions);
        framing = await stage('analysing', (signal, progress) =>
          this.framing.plan(task.mediaKey, request, (work) => work(prepared.sourceFile), {
            signal,
            onProgress: progress,
          }),
        );
        await save({ options: { ...options, framing } satisfies JobOptions });
      }

      await stage('rendering', (signal, progress) =>
        renderClip({
          sourceFile: prepared.sourceFile,
          outputFile,
          assFile: options.captionDisplay === 'none' ? null : assFile,
          startMs: options.startMs,
          endMs: options.endMs,
          framing,
          hasAudio: prepared.info.hasAudio,
          loudness: prepared.loudness,
          keepSpans: options.removeFillers ? fillerFreeSpans(transcript, options) : undefined,
          encoder: this.options.encoder,
          signal,
          onProgress: progress,
        }),
      );

      const fileKey = jobFileKey(initial.userId, jobId);
      // Still ours? A job deleted while rendering must not get files nobody owns.
      await save({});
      await stage('storing', async () => {
        await this.storage.putFile(jobCaptionsKey(initial.userId, jobId), assFile);
        await this.storage.putFile(fileKey, outputFile, { move: true });
      });
      const keptMs = options.removeFillers
        ? fillerFreeSpans(transcript, options).reduce((sum, s) => sum + s.endMs - s.startMs, 0)
        : clipMs;
      await save(
        { status: 'DONE', progress: 100, fileKey, errorReason: null, durationMs: keptMs },
        true,
      );
      log.info({ durationMs: keptMs }, 'export done');
    } catch (error) {
      // Deleted mid-run (possibly by another process): nobody owns what this run stored.
      const deleted = !(await this.jobs.findById(jobId).catch(() => initial));
      if (deleted) {
        log.info('export deleted during its render: refunded, files removed');
        await this.credits.refund(chargeKey(jobId)).catch(() => undefined);
        await this.storage.delete(jobFileKey(initial.userId, jobId)).catch(() => undefined);
        await this.storage.delete(jobCaptionsKey(initial.userId, jobId)).catch(() => undefined);
        return;
      }
      if (error instanceof RunSuperseded) {
        log.info('export run superseded by a newer run');
        return;
      }
      const failure = { stage: currentStage, reason: userFacingReason(error) };
      if (isExpectedFailure(error) || error instanceof StorageNotFoundError) {
        log.warn(failure, 'export failed');
      } else {
        log.error({ ...failure, err: error }, 'export failed unexpectedly');
      }
      // Failed exports cost nothing (design.md).
      await this.credits.refund(chargeKey(jobId)).catch(() => undefined);
      const reason =
        error instanceof StorageNotFoundError
          ? 'The source video of this clip is no longer stored, so it cannot be exported.'
          : userFacingReason(error);
      await save({ status: 'ERROR', errorReason: reason, costCredits: 0 }, true).catch(
        () => undefined,
      );
    } finally {
      run.stop();
      if (this.running.get(jobId) === run) this.running.delete(jobId);
      await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async loadSource(job: JobRow) {
    const task = job.taskId ? await this.tasks.findById(job.taskId) : undefined;
    const transcriptRow = task ? await this.tasks.findTranscript(task.id) : undefined;
    if (!task?.mediaKey || !transcriptRow) {
      throw new AppError(
        'NOT_FOUND',
        404,
        'The video of this export was deleted, so it cannot be rendered.',
      );
    }
    const transcript: StoredTranscript = storedTranscript(transcriptRow);
    return { task: { ...task, mediaKey: task.mediaKey }, transcript };
  }
}

/**
 * The parts of the clip left when its filler words are cut out, in ms from the clip start; found
 * on the same (edited, re-timed) words the captions are made from.
 */
function fillerFreeSpans(transcript: StoredTranscript, options: ResolvedClipOptions) {
  const spanWords = wordsInSpan(transcript, options.startMs, options.endMs);
  const words =
    options.transcriptText !== null
      ? retimeWords(spanWords, options.transcriptText, transcript.language)
      : spanWords;
  return keptSpans(words, options.startMs, options.endMs).map((span) => ({
    startMs: span.startMs - options.startMs,
    endMs: span.endMs - options.startMs,
  }));
}
