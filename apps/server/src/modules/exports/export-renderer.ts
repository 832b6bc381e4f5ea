import type { JobType } from '@moments/contract';
import { speechBreaks, storedTranscript } from '@moments/domain/transcript';
import { uprightFrameSize } from '@moments/domain/frame';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Translator } from '@moments/ai/translate';
import type { MediaInfo } from '@moments/media/probe';
import type { DetectedStretch, Size } from '@moments/media/reframe';
import { AppError } from '../../http/errors.js';
import { StorageNotFoundError, type Storage } from '../../storage/index.js';
import type { CreditReads, RefundOutbox } from '../billing/index.js';
import { exportQuote, type RefundCause } from '@moments/domain';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { isExpectedFailure, userFacingReason } from '../tasks/failure-reasons.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import { placeLogo } from '@moments/domain/brand-kits';
import {
  buildClipCaptions,
  captionPlacement,
  clipCutPlan,
  cutsClip,
  exportFrameSize,
  type ResolvedClipOptions,
  type StoredTranscript,
} from '../captions/clip-captions.js';
import type {
  ClipFraming,
  FramingRequest,
  LoudnessMeasure,
  MediaRepository,
  VideoEncoderSettings,
} from '../media/media.repository.js';
import { currentFraming, FramingPlanner } from './clip-framing.js';
import type { MediaAnalysesRepository } from './media-analyses.repository.js';
import type { ExportsRepository, ExportPatch, ExportRow } from './exports.repository.js';
import { RunSuperseded, type LeasedRun, type Leases } from '../../queue/lease.js';
import { addRunIds } from '../../queue/run-context.js';
import { removeRunFolder } from '../../config/data-dir.js';
import type { BackgroundWork } from '../../queue/background-work.js';
import { jobCaptionsKey, jobFileKey, jobForNotification, jobPosterKey } from './job-mapper.js';

export interface ExportRendererOptions {
  exports: ExportsRepository;
  media: MediaRepository;
  tasks: TasksRepository;
  storage: Storage;
  /** Failed exports are refunded through the outbox (modules/billing). */
  billing: { refunds: RefundOutbox; reads: CreditReads };
  notifications: NotificationsService;
  translator: Translator;
  workRoot: string;
  /** Claims, heart-beats and releases each render (queue/lease.ts). */
  leases: Leases<ExportRow, ExportPatch>;
  /** Where framing plans and loudness measures are kept across processes; absent: per process. */
  analyses?: MediaAnalysesRepository;
  /** The video encoder and its threads (VIDEO_ENCODER, the worker's share of the cores). */
  encoder?: VideoEncoderSettings;
  /** Renders (and the analyses they start) are tracked background work: close stops them. */
  background: BackgroundWork;
  /** Each render logs through a child carrying its jobId and userId. */
  log?: Logger;
  /**
   * Stores the export's poster: the frame the render wrote beside the MP4, or one
   * picked from the finished MP4 when it wrote none; absent: no poster.
   */
  poster?: (
    job: { id: string; userId: string },
    made: { mp4File: string; durationMs: number; renderedFrame: string },
    signal: AbortSignal,
  ) => Promise<string | null>;
}

/** A job's stored options: the resolved request, and the framing plan once it is known. */
export type JobOptions = ResolvedClipOptions & { framing?: ClipFraming };

/**
 * What the framing of a clip depends on; the export, the preview and the background analysis
 * ask with the same request. Layout switches land on the transcript's sentence ends and pauses.
 */
export function framingRequestOf(
  options: ResolvedClipOptions,
  source: Size,
  output: Size,
  transcript?: Pick<StoredTranscript, 'segments'>,
): FramingRequest {
  return {
    aspect: options.aspect,
    quality: options.quality,
    layout: options.layout,
    startMs: options.startMs,
    endMs: options.endMs,
    source,
    output: { width: output.width, height: output.height },
    breaksMs: transcript ? speechBreaks(transcript.segments) : undefined,
  };
}

/** Progress bands per stage, so the bar only moves forward. */
const STAGES = {
  preparing: { band: [0, 3], timeoutMs: () => 10 * 60_000 },
  // Face analysis decodes the span once and looks at a few frames a second.
  analysing: { band: [3, 30], timeoutMs: (clipMs: number) => Math.max(5 * 60_000, clipMs * 4) },
  // Captions are made once the framing says what the picture under them is like.
  captioning: { band: [30, 31], timeoutMs: () => 10 * 60_000 },
  rendering: { band: [31, 98], timeoutMs: (clipMs: number) => Math.max(10 * 60_000, clipMs * 8) },
  storing: { band: [98, 100], timeoutMs: () => 10 * 60_000 },
} as const;
type Stage = keyof typeof STAGES;

/** One render of an export, as its steps see it. */
interface RenderContext {
  initial: ExportRow;
  run: LeasedRun<ExportRow, ExportPatch>;
  log: Logger;
  workDir: string;
  options: JobOptions;
  clipMs: number;
  /** The stage under way, named in the failure log. */
  currentStage: Stage | undefined;
  /** Milliseconds each step took, logged with the finished export. */
  timings: Record<string, number>;
  stage<T>(
    name: Stage,
    work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
  ): Promise<T>;
}

/** The source as the render needs it. */
interface PreparedSource {
  sourceFile: string;
  info: MediaInfo;
  source: Size;
  loudness: LoudnessMeasure | undefined;
  /** The audio's silent stretches (source ms), measured when pauses are shortened. */
  silences: { startMs: number; endMs: number }[] | undefined;
}

/**
 * The `export-render` job: one ffmpeg pass from the stored source to the finished MP4. Runs under
 * a run token like tasks: a duplicate or stale delivery does nothing, a job whose worker died is
 * resumed by the export Leases with a new token (the render starts over; nothing half-made is kept).
 */
export class ExportRenderer {
  /** Shared with the editor's framing preview (ExportsService), so both use one plan. */
  readonly framing: FramingPlanner;
  /** Where the latest finished render's time went, step by step (the benches print it). */
  lastTimings: Record<string, number> | undefined;

  private readonly jobs: ExportsRepository;
  private readonly media: MediaRepository;
  private readonly tasks: TasksRepository;
  private readonly storage: Storage;
  private readonly billing: ExportRendererOptions['billing'];
  private readonly notifications: NotificationsService;
  private readonly translator: Translator;

  constructor(private readonly options: ExportRendererOptions) {
    ({
      exports: this.jobs,
      media: this.media,
      tasks: this.tasks,
      storage: this.storage,
      billing: this.billing,
      notifications: this.notifications,
      translator: this.translator,
    } = options);
    const analyses = options.analyses;
    this.framing = new FramingPlanner(
      options.media,
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
      options.background,
    );
  }

  /**
   * The loudness of a span, measured once and kept: a second export of the same moment (another
   * template, a translation) reuses it instead of decoding the audio again.
   */
  async loudnessOf(
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
    const measure = await this.media.measureLoudness(sourceFile, { startMs, endMs }, signal);
    await analyses?.save(mediaKey, 'loudness', spanKey, { measure: measure ?? null });
    return measure;
  }

  /**
   * The source's facts (ffprobe), read once per stored source and kept: every later export of
   * it starts its render without running ffprobe again (a stored source never changes).
   */
  async probeOf(mediaKey: string, sourceFile: string, signal?: AbortSignal): Promise<MediaInfo> {
    const stored = await this.storedProbe(mediaKey);
    if (stored) return stored;
    const info = await this.media.probe(sourceFile, { signal });
    await this.options.analyses?.save(mediaKey, 'probe', 'source', info);
    return info;
  }

  /** The kept facts of a source, if it was probed before (no file needed). */
  storedProbe(mediaKey: string): Promise<MediaInfo | undefined> {
    return (
      this.options.analyses?.find<MediaInfo>(mediaKey, 'probe', 'source') ??
      Promise.resolve(undefined)
    );
  }

  /**
   * The silent stretches of a span's audio (its energy), measured once and kept like loudness:
   * the editor's preview and the export of the same clip read the same measure.
   */
  async silencesOf(
    mediaKey: string,
    sourceFile: string,
    span: { startMs: number; endMs: number },
    options: { signal?: AbortSignal; loudness?: LoudnessMeasure } = {},
  ): Promise<{ startMs: number; endMs: number }[]> {
    const analyses = this.options.analyses;
    const spanKey = `${span.startMs}-${span.endMs}`;
    const stored = await analyses?.find<{ silences: { startMs: number; endMs: number }[] }>(
      mediaKey,
      'silences',
      spanKey,
    );
    if (stored) return stored.silences;
    const silences = await this.media.detectSilences(sourceFile, span, options);
    await analyses?.save(mediaKey, 'silences', spanKey, { silences });
    return silences;
  }

  /**
   * The parts of the clip its cut keeps (deleted words, fillers, long pauses out), in ms from the
   * clip start; undefined when nothing is cut. Pauses are measured on the audio when it has some.
   */
  private cutKeepSpans(
    ctx: RenderContext,
    prepared: PreparedSource,
    transcript: StoredTranscript,
  ): { startMs: number; endMs: number }[] | undefined {
    const { options } = ctx;
    if (!cutsClip(options)) return undefined;
    const plan = clipCutPlan(transcript, options, prepared.silences);
    if (!plan.removed.length) return undefined;
    return plan.kept.map((span) => ({
      startMs: span.startMs - options.startMs,
      endMs: span.endMs - options.startMs,
    }));
  }

  /** The sum of the stage timeouts of a clip this long: the queue expiry of its render job. */
  /** Refunds the export's charge (its quote names the key's kind). */
  private refund(
    job: { id: string; userId: string; type: string; durationMs: number | null },
    cause: RefundCause,
  ) {
    const { kind } = exportQuote(job.type as JobType, job.durationMs ?? 0);
    return this.billing.refunds.refund(job.userId, { kind, jobId: job.id }, cause);
  }

  static expirySeconds(clipMs: number): number {
    const totalMs = Object.values(STAGES).reduce((sum, stage) => sum + stage.timeoutMs(clipMs), 0);
    return Math.ceil((totalMs + 10 * 60_000) / 1000);
  }

  /** Stops a render in this process (job deleted). */
  cancel(jobId: string) {
    this.options.leases.cancel(jobId);
  }

  /**
   * Runs the `export-render` job as tracked background work: refused once the process closes
   * (the queue retries it later), stopped by the close and left resumable.
   */
  run(jobId: string, runToken: string): Promise<void> {
    return this.options.background.run((closing) => this.runTracked(jobId, runToken, closing));
  }

  private async runTracked(jobId: string, runToken: string, closing: AbortSignal): Promise<void> {
    const claimStarted = performance.now();
    const initial = await this.options.leases.claim(jobId, runToken);
    if (!initial) return;
    const ctx = this.startRun(initial, runToken, closing);
    ctx.timings.queued = Math.max(0, Date.now() - initial.createdAt.getTime());
    ctx.timings.claim = Math.round(performance.now() - claimStarted);
    const { run, log, workDir } = ctx;
    try {
      await fs.mkdir(workDir, { recursive: true });
      const { task, transcript } = await this.loadSource(initial);
      const prepared = await this.prepare(ctx, task.mediaKey);
      const framing = await this.frame(ctx, task.mediaKey, prepared, transcript);
      const assFile = path.join(workDir, 'captions.ass');
      await ctx.stage('captioning', (signal) =>
        this.writeCaptions(transcript, ctx.options, prepared.source, framing, assFile, signal),
      );
      const outputFile = path.join(workDir, 'clip.mp4');
      const posterFile = path.join(workDir, 'poster.jpg');
      const keepSpans = this.cutKeepSpans(ctx, prepared, transcript);
      await this.render(ctx, { prepared, framing, assFile, outputFile, posterFile, keepSpans });
      const keptMs = keepSpans
        ? keepSpans.reduce((sum, s) => sum + s.endMs - s.startMs, 0)
        : ctx.clipMs;
      const { fileKey, posterKey } = await this.store(ctx, {
        assFile,
        outputFile,
        posterFile,
        keptMs,
      });
      await removeRunFolder(workDir);
      await run.save(
        {
          status: 'DONE',
          progress: 100,
          fileKey,
          posterKey,
          errorReason: null,
          durationMs: keptMs,
        },
        true,
      );
      this.lastTimings = ctx.timings;
      log.info({ durationMs: keptMs, timings: ctx.timings }, 'export done');
    } catch (error) {
      await removeRunFolder(workDir);
      await this.settleFailure(error, { initial, run, log, stage: ctx.currentStage });
    } finally {
      await this.options.leases.release(jobId, run);
      await removeRunFolder(workDir);
    }
  }

  /** The render's lease, logger and work folder, and the stage runner every step goes through. */
  private startRun(initial: ExportRow, runToken: string, closing: AbortSignal): RenderContext {
    const jobId = initial.id;
    addRunIds({ userId: initial.userId });
    const log = (this.options.log ?? silentLogger).child({
      jobId,
      userId: initial.userId,
      taskId: initial.taskId,
      runToken,
      type: initial.type,
    });
    log.info('export render started');
    const run = this.options.leases.hold(initial, runToken, {
      onChange: (row, final) =>
        this.notifications
          .jobChanged(row.userId, jobForNotification(row), final)
          .catch((err: unknown) => log.warn({ err }, 'could not notify the export change')),
      closing,
    });
    const options = initial.options as JobOptions;
    const clipMs = options.endMs - options.startMs;
    const ctx: RenderContext = {
      initial,
      run,
      log,
      workDir: path.join(this.options.workRoot, `job-${jobId}-${randomUUID().slice(0, 8)}`),
      options,
      clipMs,
      currentStage: undefined,
      timings: {},
      stage: async (name, work) => {
        ctx.currentStage = name;
        const started = performance.now();
        try {
          return await run.stage(name, STAGES[name].band, STAGES[name].timeoutMs(clipMs), work);
        } finally {
          ctx.timings[name] = Math.round(performance.now() - started);
        }
      },
    };
    return ctx;
  }

  /** The source in the run's folder, its picture size and its loudness. */
  private prepare(ctx: RenderContext, mediaKey: string): Promise<PreparedSource> {
    const { options, workDir } = ctx;
    return ctx.stage('preparing', async (signal) => {
      // S3: one copy of the source in this run's folder, stopped by the run's abort (not one
      // download per stage); the local driver hands its own file.
      const sourceFile = await this.storage.localCopy(mediaKey, workDir, { signal });
      const info = await this.probeOf(mediaKey, sourceFile, signal);
      if (!info.width || !info.height) {
        throw new AppError('NOT_A_VIDEO', 422, 'The source of this clip has no picture.');
      }
      const source = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
      const loudness = info.hasAudio
        ? await this.loudnessOf(mediaKey, sourceFile, options.startMs, options.endMs, signal)
        : undefined;
      const silences =
        options.minPauseMs !== undefined && info.hasAudio
          ? await this.silencesOf(mediaKey, sourceFile, options, { signal, loudness })
          : undefined;
      return { sourceFile, info, source, loudness, silences };
    });
  }

  /**
   * The plan the editor previewed or the background analysis made (attached when the job was
   * made) is the plan rendered; otherwise the planner makes it (or joins a preview's analysis
   * under way) and it is kept on the job, so the job always records the framing its file has.
   */
  private async frame(
    ctx: RenderContext,
    mediaKey: string,
    prepared: PreparedSource,
    transcript: StoredTranscript,
  ): Promise<ClipFraming> {
    const { options } = ctx;
    const attached = options.framing && currentFraming(options.framing);
    if (attached) return attached;
    const frame = exportFrameSize(options.aspect, options.quality, prepared.source);
    const request = framingRequestOf(options, prepared.source, frame, transcript);
    const framing = await ctx.stage('analysing', (signal, progress) =>
      this.framing.plan(mediaKey, request, (work) => work(prepared.sourceFile), {
        signal,
        onProgress: progress,
      }),
    );
    await ctx.run.save({ options: { ...options, framing } satisfies JobOptions });
    return framing;
  }

  private render(
    ctx: RenderContext,
    clip: {
      prepared: PreparedSource;
      framing: ClipFraming;
      assFile: string;
      outputFile: string;
      posterFile: string;
      keepSpans?: { startMs: number; endMs: number }[];
    },
  ): Promise<void> {
    const { options } = ctx;
    const kit = options.brandKit;
    // Intro and outro cards are in the captions' document: it is burnt in for them too.
    const burnAss = options.captionDisplay !== 'none' || !!kit?.introText || !!kit?.outroText;
    return ctx.stage('rendering', async (signal, progress) =>
      this.media.render({
        sourceFile: clip.prepared.sourceFile,
        outputFile: clip.outputFile,
        assFile: burnAss ? clip.assFile : null,
        logo: await this.logoFor(ctx, clip.prepared.source, signal),
        startMs: options.startMs,
        endMs: options.endMs,
        framing: clip.framing,
        hasAudio: clip.prepared.info.hasAudio,
        loudness: clip.prepared.loudness,
        keepSpans: clip.keepSpans,
        posterFile: this.options.poster ? clip.posterFile : undefined,
        encoder: this.options.encoder,
        signal,
        onProgress: progress,
      }),
    );
  }

  /**
   * The brand kit's logo in the run's folder, placed as the preview placed it (inside the
   * platform's safe zone); a logo deleted with its kit since the export began is left out.
   */
  private async logoFor(ctx: RenderContext, source: Size, signal: AbortSignal) {
    const { options } = ctx;
    const kit = options.brandKit;
    if (!kit?.logo) return undefined;
    let file: string;
    try {
      file = await this.storage.localCopy(kit.logo.key, ctx.workDir, { signal });
    } catch (error) {
      if (!(error instanceof StorageNotFoundError)) throw error;
      ctx.log.warn({ key: kit.logo.key }, 'brand kit logo gone: exported without it');
      return undefined;
    }
    const frame = exportFrameSize(options.aspect, options.quality, source);
    const rect = placeLogo({
      frame,
      logo: kit.logo,
      position: kit.position,
      scale: kit.scale,
      platform: options.platform,
    });
    return { file, ...rect, opacity: kit.opacity };
  }

  /** The poster, the captions and the MP4 into storage, if the job is still ours. */
  private async store(
    ctx: RenderContext,
    made: { assFile: string; outputFile: string; posterFile: string; keptMs: number },
  ): Promise<{ fileKey: string; posterKey: string | null }> {
    const { initial } = ctx;
    const fileKey = jobFileKey(initial.userId, initial.id);
    // Still ours? A job deleted while rendering must not get files nobody owns.
    await ctx.run.save({});
    const posterKey = await ctx.stage('storing', async (signal) => {
      const poster =
        (await this.options.poster?.(
          initial,
          { mp4File: made.outputFile, durationMs: made.keptMs, renderedFrame: made.posterFile },
          signal,
        )) ?? null;
      await this.storage.putFile(jobCaptionsKey(initial.userId, initial.id), made.assFile);
      await this.storage.putFile(fileKey, made.outputFile, { move: true });
      return poster;
    });
    return { fileKey, posterKey };
  }

  /**
   * The captions, placed clear of the faces of stacked panes, with a box or a heavy outline where
   * the framed picture under them is light or busy (the plan's verdict), written for the render
   * to burn in.
   */
  private async writeCaptions(
    transcript: StoredTranscript,
    options: ResolvedClipOptions,
    source: Size,
    framing: ClipFraming,
    assFile: string,
    signal: AbortSignal,
  ): Promise<void> {
    const plan = framing.layout === 'scale' ? undefined : framing.plan;
    const captions = await buildClipCaptions(
      transcript,
      options,
      source,
      this.translator,
      signal,
      captionPlacement(plan, options.captionPosition),
    );
    await fs.writeFile(assFile, captions.ass, 'utf8');
  }

  /**
   * After a render stopped early: a deleted export is refunded and its files removed; a
   * superseded (or shut down) run leaves everything to the run that follows; a failed one ends
   * ERROR with a reason the user can read, refunded.
   */
  private async settleFailure(
    error: unknown,
    context: {
      initial: ExportRow;
      run: LeasedRun<ExportRow, ExportPatch>;
      log: Logger;
      stage: Stage | undefined;
    },
  ): Promise<void> {
    const { initial, run, log } = context;
    const jobId = initial.id;
    // Deleted mid-run (possibly by another process): nobody owns what this run stored.
    const deleted = !(await this.jobs.findById(jobId).catch(() => initial));
    if (deleted) {
      log.info('export deleted during its render: refunded, files removed');
      await this.refund(initial, 'deleted');
      for (const key of [
        jobFileKey(initial.userId, jobId),
        jobCaptionsKey(initial.userId, jobId),
        jobPosterKey(initial.userId, jobId),
      ]) {
        await this.storage
          .delete(key)
          .catch((err: unknown) =>
            log.warn({ err, key }, 'file of a deleted export could not be removed; left behind'),
          );
      }
      return;
    }
    if (error instanceof RunSuperseded) {
      log.info(`export run stopped: ${error.message}`);
      return;
    }
    const failure = { stage: context.stage, reason: userFacingReason(error) };
    if (isExpectedFailure(error) || error instanceof StorageNotFoundError) {
      log.warn(failure, 'export failed');
    } else {
      log.error({ ...failure, err: error }, 'export failed unexpectedly');
    }
    // Failed exports cost nothing (design.md); the cost shown follows the refund.
    await this.refund(initial, 'failed');
    const costCredits = await this.billing.reads.netCharged({ jobId }).catch((err: unknown) => {
      log.warn({ err }, 'ledger unreadable: the failed export shows its charge until reloaded');
      return initial.costCredits;
    });
    const reason =
      error instanceof StorageNotFoundError
        ? 'The source video of this clip is no longer stored, so it cannot be exported.'
        : userFacingReason(error);
    await run
      .save({ status: 'ERROR', errorReason: reason, costCredits }, true)
      .catch((saveError: unknown) =>
        log.error({ err: saveError }, 'could not mark the failed export ERROR'),
      );
  }

  private async loadSource(job: ExportRow) {
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
