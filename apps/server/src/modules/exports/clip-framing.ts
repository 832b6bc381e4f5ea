import type { ClipFraming as ClipFramingDto } from '@moments/contract';
import {
  fitInside,
  MemoryDetectionStore,
  type CropKeyframe,
  type DetectedStretch,
  type DetectionStore,
  type LayoutSegment,
  type ReframePlan,
} from '@moments/media/reframe';
import type { BackgroundWork } from '../../queue/background-work.js';
import type { ClipFraming, FramingRequest, MediaRepository } from '../media/media.repository.js';

/** What decides a plan besides the media (the sizes follow from these and the media). */
export type FramingKeyFields = Pick<
  FramingRequest,
  'aspect' | 'quality' | 'layout' | 'startMs' | 'endMs'
>;

/** Plans kept per process; a plan is a few KB (at most 240 keyframes). */
const CACHE_SIZE = 100;
/**
 * Sources whose face detections this process keeps (about 100 bytes a sample: a whole hour at
 * 4 samples a second is under 2 MB); the moments of the tasks being worked on fit.
 */
const DETECTION_SOURCES = 20;

export interface PlanFramingOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/**
 * Where plans outlive the process: the database (media_analyses), so the preview made by one
 * process and the export rendered by another share one analysis.
 */
export interface FramingStore {
  find(mediaKey: string, key: string): Promise<ClipFraming | undefined>;
  save(mediaKey: string, key: string, framing: ClipFraming): Promise<void>;
  /**
   * Face detections of a source, shared by all its spans (the moments of a task), so another
   * process planning an overlapping span analyses only what no one analysed yet.
   */
  findDetections?(mediaKey: string, settings: string): Promise<DetectedStretch[]>;
  saveDetections?(mediaKey: string, stretch: DetectedStretch): Promise<void>;
}

/** One analysis under way, shared by everyone asking for the same plan. */
interface InFlight {
  key: string;
  promise: Promise<ClipFraming>;
  controller: AbortController;
  waiters: number;
  progressListeners: Set<(fraction: number) => void>;
}

/**
 * The one place clip framing is planned, for the editor's preview (POST /api/captions/framing)
 * and for the export alike, so both show the same crop path (the preview matches the
 * export frame for frame). Face analysis takes seconds, so plans are kept (LRU) by what decides
 * them, and a request for a plan that is being made waits for it rather than starting another.
 */
export class FramingPlanner {
  private readonly plans = new Map<string, ClipFraming>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly detections = new Map<string, MemoryDetectionStore>();
  /** Frames decoded for face analysis by this planner so far (for metrics and tests). */
  framesDecoded = 0;

  constructor(
    /** The face analysis runs through it (a fake in service tests). */
    private readonly media: MediaRepository,
    private readonly store?: FramingStore,
    /** Where analyses keep their scratch files (the server's DATA_DIR/tmp, swept at start). */
    private readonly workRoot?: string,
    /** Analyses are tracked background work: the process's close stops and awaits them. */
    private readonly background?: BackgroundWork,
  ) {}

  /** A plan made earlier for this media and request, if this process still has it. */
  cached(mediaKey: string, request: FramingKeyFields): ClipFraming | undefined {
    const key = framingKey(mediaKey, request);
    const plan = this.plans.get(key);
    if (plan) this.remember(key, plan);
    return plan;
  }

  /** A plan made earlier for this media and request, by this process or any other. */
  async stored(mediaKey: string, request: FramingKeyFields): Promise<ClipFraming | undefined> {
    const cached = this.cached(mediaKey, request);
    if (cached || !this.store) return cached;
    const key = framingKey(mediaKey, request);
    const found = await this.store.find(mediaKey, key);
    const stored = found && currentFraming(found);
    if (stored) this.remember(key, stored);
    return stored;
  }

  /**
   * The plan for `request`: cached or stored, joined while another caller makes it, or made now from the
   * local source file `withSource` lends. A caller that aborts stops waiting; the analysis itself
   * stops only when no one waits for it any more.
   */
  async plan(
    mediaKey: string,
    request: FramingRequest,
    withSource: <T>(work: (sourceFile: string) => Promise<T>) => Promise<T>,
    options: PlanFramingOptions = {},
  ): Promise<ClipFraming> {
    const key = framingKey(mediaKey, request);
    // Without a store the lookup stays synchronous: a caller that aborts right after asking
    // still finds its analysis started, and stopped for it.
    const known = this.store
      ? await this.stored(mediaKey, request)
      : this.cached(mediaKey, request);
    if (known) return known;
    options.signal?.throwIfAborted();

    let entry = this.inFlight.get(key);
    if (!entry) {
      const controller = new AbortController();
      const progressListeners = new Set<(fraction: number) => void>();
      const analyse = (closing?: AbortSignal) =>
        withSource((sourceFile) =>
          this.makePlan(mediaKey, sourceFile, request, {
            signal: closing ? AbortSignal.any([controller.signal, closing]) : controller.signal,
            onProgress: (fraction) => progressListeners.forEach((listener) => listener(fraction)),
          }),
        );
      // An analysis may outlive the request that asked for it (others wait on it): tracked.
      const analysed = this.background ? this.background.run(analyse) : analyse();
      const promise = analysed.then(async (framing) => {
        // Kept before anyone is told, so a render that follows never analyses again.
        await this.store?.save(mediaKey, key, framing);
        return framing;
      });
      const created: InFlight = { key, promise, controller, waiters: 0, progressListeners };
      entry = created;
      this.inFlight.set(key, created);
      promise.then(
        (framing) => {
          if (this.inFlight.get(key) === created) this.inFlight.delete(key);
          this.remember(key, framing);
        },
        () => {
          if (this.inFlight.get(key) === created) this.inFlight.delete(key);
        },
      );
    }
    return this.wait(entry, options);
  }

  /**
   * Analyses [startMs, endMs) of the source ahead of any plan (the background analysis of a
   * task's moments): what it finds is kept with the source's detections, so a later plan of any
   * span inside it decodes nothing. Answers the frames it decoded.
   */
  async analyse(
    mediaKey: string,
    sourceFile: string,
    range: { startMs: number; endMs: number },
    signal?: AbortSignal,
  ): Promise<number> {
    const analysis = await this.media.analyseFraming(sourceFile, {
      ...range,
      signal,
      workDir: this.workRoot,
      detections: this.detectionsOf(mediaKey),
    });
    this.framesDecoded += analysis.decodedFrames;
    return analysis.decodedFrames;
  }

  /**
   * planClipFraming, with the face detections of the source shared across its spans: only the
   * parts of this span no earlier plan analysed are decoded.
   */
  private async makePlan(
    mediaKey: string,
    sourceFile: string,
    request: FramingRequest,
    options: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ): Promise<ClipFraming> {
    const { analysis, ...framing } = await this.media.planFraming(sourceFile, request, {
      ...options,
      workDir: this.workRoot,
      detections: this.detectionsOf(mediaKey),
    });
    this.framesDecoded += analysis?.decodedFrames ?? 0;
    return framing as ClipFraming;
  }

  /** The source's detections: this process's, and the store's (other processes'). */
  private detectionsOf(mediaKey: string): DetectionStore {
    let memory = this.detections.get(mediaKey);
    if (memory) this.detections.delete(mediaKey);
    memory ??= new MemoryDetectionStore();
    this.detections.set(mediaKey, memory);
    if (this.detections.size > DETECTION_SOURCES) {
      this.detections.delete(this.detections.keys().next().value!);
    }
    const local = memory;
    const store = this.store;
    return {
      async find(settings, startMs, endMs) {
        const found = await local.find(settings, startMs, endMs);
        const stored = (await store?.findDetections?.(mediaKey, settings)) ?? [];
        const known = new Set(found.map((stretch) => `${stretch.startMs}-${stretch.endMs}`));
        for (const stretch of stored) {
          const overlaps = stretch.startMs < endMs && stretch.endMs > startMs;
          if (!overlaps || known.has(`${stretch.startMs}-${stretch.endMs}`)) continue;
          found.push(stretch);
          // Kept here too, so the next span of this source needs no database read for it.
          await local.save(stretch);
        }
        return found;
      },
      async save(stretch) {
        await local.save(stretch);
        await store?.saveDetections?.(mediaKey, stretch);
      },
    };
  }

  private async wait(entry: InFlight, options: PlanFramingOptions): Promise<ClipFraming> {
    entry.waiters++;
    if (options.onProgress) entry.progressListeners.add(options.onProgress);
    const { signal } = options;
    let onAbort: (() => void) | undefined;
    try {
      if (!signal) return await entry.promise;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      return await Promise.race([entry.promise, aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (options.onProgress) entry.progressListeners.delete(options.onProgress);
      entry.waiters--;
      // Nobody wants this plan any more (the editor moved on): stop decoding for nothing.
      if (entry.waiters === 0 && this.inFlight.get(entry.key) === entry) {
        this.inFlight.delete(entry.key);
        entry.controller.abort(new Error('framing no longer needed'));
      }
    }
  }

  private remember(key: string, framing: ClipFraming) {
    this.plans.delete(key);
    this.plans.set(key, framing);
    if (this.plans.size > CACHE_SIZE) this.plans.delete(this.plans.keys().next().value!);
  }
}

/** Bumped when plans change shape or meaning: plans stored by older code are made again. */
const PLAN_VERSION = 2;

/**
 * What decides a plan: the media and the span, the frame shape and size, the layout asked for.
 * The source size follows from the media, the output size from aspect and quality, the breaks
 * from the media's transcript.
 */
function framingKey(mediaKey: string, request: FramingKeyFields): string {
  return JSON.stringify([
    mediaKey,
    request.startMs,
    request.endMs,
    request.aspect,
    request.quality,
    request.layout,
    PLAN_VERSION,
  ]);
}

/**
 * A plan as stored by any version: plans made before layouts had segments (one crop path, or
 * the blurred fit) are read as the one segment they were.
 */
export function currentFraming(framing: ClipFraming): ClipFraming {
  if (framing.layout === 'scale' || Array.isArray(framing.plan.segments)) return framing;
  const old = framing.plan as unknown as ReframePlan & { keyframes?: CropKeyframe[] };
  const durationMs = old.endMs - old.startMs;
  const fitted = fitInside(old.source, old.output);
  const segment: LayoutSegment = old.keyframes
    ? {
        startMs: 0,
        endMs: durationMs,
        layout: 'speaker',
        backdrop: false,
        panes: [
          { x: 0, y: 0, w: old.output.width, h: old.output.height, keyframes: old.keyframes },
        ],
      }
    : {
        startMs: 0,
        endMs: durationMs,
        layout: 'fit',
        backdrop: true,
        panes: [
          {
            x: ((old.output.width - fitted.width) >> 2) * 2,
            y: ((old.output.height - fitted.height) >> 2) * 2,
            w: fitted.width,
            h: fitted.height,
            keyframes: [{ tMs: 0, x: 0, y: 0, w: old.source.width, h: old.source.height }],
          },
        ],
      };
  const plan: ReframePlan = {
    ...old,
    segments: [segment],
    captionBackground: { bottom: 'plain', middle: 'plain', top: 'plain' },
    switchesPerMinute: 0,
  };
  return { layout: plan.layout, plan };
}

const keyframesDto = (keyframes: readonly CropKeyframe[]) =>
  keyframes.map(({ tMs, x, y, w, h }) => ({ t_ms: tMs, x, y, w, h }));

/**
 * The API's view of a plan. `original` (a plain scale) is the whole frame filling the output,
 * which is exactly what it shows.
 */
export function toFramingDto(framing: ClipFraming, request: FramingRequest): ClipFramingDto {
  if (framing.layout === 'scale') {
    const whole = [{ t_ms: 0, x: 0, y: 0, w: request.source.width, h: request.source.height }];
    return {
      layout: 'crop',
      source: request.source,
      output: framing.output,
      start_ms: request.startMs,
      end_ms: request.endMs,
      keyframes: whole,
      segments: [
        {
          start_ms: 0,
          end_ms: request.endMs - request.startMs,
          layout: 'fit',
          backdrop: false,
          panes: [
            { x: 0, y: 0, w: framing.output.width, h: framing.output.height, keyframes: whole },
          ],
        },
      ],
      caption_background: { bottom: 'plain', middle: 'plain', top: 'plain' },
      switches_per_minute: 0,
    };
  }
  const { plan } = currentFraming(framing) as { plan: ReframePlan };
  return {
    layout: plan.layout,
    source: plan.source,
    output: plan.output,
    start_ms: plan.startMs,
    end_ms: plan.endMs,
    keyframes:
      plan.layout === 'crop' ? keyframesDto(plan.segments[0]?.panes[0]?.keyframes ?? []) : [],
    segments: plan.segments.map((segment) => ({
      start_ms: segment.startMs,
      end_ms: segment.endMs,
      layout: segment.layout,
      backdrop: segment.backdrop,
      panes: segment.panes.map((pane) => ({
        x: pane.x,
        y: pane.y,
        w: pane.w,
        h: pane.h,
        keyframes: keyframesDto(pane.keyframes),
      })),
    })),
    caption_background: plan.captionBackground,
    switches_per_minute: plan.switchesPerMinute,
  };
}
