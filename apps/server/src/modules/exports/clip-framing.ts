import type { ClipFraming as ClipFramingDto } from '@moments/contract';
import {
  MemoryDetectionStore,
  type DetectedStretch,
  type DetectionStore,
} from '@moments/media/reframe';
import { planClipFraming, type ClipFraming, type FramingRequest } from './clip-render.js';

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
 * and for the export alike, so both show the same crop path (issue 5: the preview matches the
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
    private readonly store?: FramingStore,
    /** Where analyses keep their scratch files (the server's DATA_DIR/tmp, swept at start). */
    private readonly workRoot?: string,
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
    const stored = await this.store.find(mediaKey, key);
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
      const promise = withSource((sourceFile) =>
        this.makePlan(mediaKey, sourceFile, request, {
          signal: controller.signal,
          onProgress: (fraction) => progressListeners.forEach((listener) => listener(fraction)),
        }),
      ).then(async (framing) => {
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
   * planClipFraming, with the face detections of the source shared across its spans: only the
   * parts of this span no earlier plan analysed are decoded.
   */
  private async makePlan(
    mediaKey: string,
    sourceFile: string,
    request: FramingRequest,
    options: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ): Promise<ClipFraming> {
    const { analysis, ...framing } = await planClipFraming(sourceFile, request, {
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

/**
 * What decides a plan: the media and the span, the frame shape and size, the layout asked for.
 * The source size follows from the media, the output size from aspect and quality.
 */
function framingKey(mediaKey: string, request: FramingKeyFields): string {
  return JSON.stringify([
    mediaKey,
    request.startMs,
    request.endMs,
    request.aspect,
    request.quality,
    request.layout,
  ]);
}

/**
 * The API's view of a plan. `original` (a plain scale) is the crop of the whole frame, which is
 * exactly what it shows.
 */
export function toFramingDto(framing: ClipFraming, request: FramingRequest): ClipFramingDto {
  if (framing.layout === 'scale') {
    return {
      layout: 'crop',
      source: request.source,
      output: framing.output,
      start_ms: request.startMs,
      end_ms: request.endMs,
      keyframes: [{ t_ms: 0, x: 0, y: 0, w: request.source.width, h: request.source.height }],
    };
  }
  const { plan } = framing;
  return {
    layout: plan.layout,
    source: plan.source,
    output: plan.output,
    start_ms: plan.startMs,
    end_ms: plan.endMs,
    keyframes:
      plan.layout === 'crop'
        ? plan.keyframes.map(({ tMs, x, y, w, h }) => ({ t_ms: tMs, x, y, w, h }))
        : [],
  };
}
