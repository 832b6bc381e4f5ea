import { uprightFrameSize } from '@moments/domain/frame';
import { storedTranscript, transcriptWords } from '@moments/domain/transcript';
import { snapTrimToWords } from '@moments/domain/trim';
import type { ExportLayout } from '@moments/contract';
import type { WorkGate } from '../../queue/work-gate.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { Storage } from '../../storage/index.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MomentsRepository } from '../moments/moments.repository.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import { exportFrameSize, type ResolvedClipOptions } from '../captions/clip-captions.js';
import { framingRequestOf, type ExportRenderer } from './export-renderer.js';

export interface FramingPreparerOptions {
  momentsRepo: MomentsRepository;
  media: MediaRepository;
  tasks: TasksRepository;
  storage: Storage;
  renderer: ExportRenderer;
  gate: WorkGate;
  /** How many of a task's best moments are prepared. */
  moments: number;
  /**
   * Analysis goes in pieces this long: user work stops the piece under way, and what the
   * finished pieces found is kept.
   */
  pieceMs: number;
  log?: Logger;
}

export interface PreparedTask {
  moments: number;
  /** Frames decoded for the analysis (0 when everything was analysed before). */
  framesDecoded: number;
}

/** The options an export of a moment gets when nobody changed them (the studio's defaults). */
const DEFAULT_EXPORT = {
  aspect: '9:16',
  quality: '1080p',
  template: 'karaoke',
  captionPosition: 'bottom',
  captionSize: 'medium',
  removeFillers: false,
} as const;

/**
 * The `framing-prepare` background job: as soon as a task is DONE, the framing
 * of its best moments is analysed (shots, faces, who speaks, the picture under the captions) and
 * planned, and their loudness measured, all kept in media_analyses, so exporting one of them
 * only renders. It runs while no work a user waits for runs in this process and stops for it
 * (WorkGate); a trimmed or extended export later analyses only what lies outside.
 */
export class FramingPreparer {
  constructor(private readonly options: FramingPreparerOptions) {}

  async prepareTask(taskId: string): Promise<PreparedTask> {
    const log = (this.options.log ?? silentLogger).child({ taskId, job: 'framing-prepare' });
    const task = await this.options.tasks.findById(taskId);
    const transcriptRow = task && (await this.options.tasks.findTranscript(task.id));
    const mediaKey = task?.mediaKey;
    if (!task || task.status !== 'DONE' || !mediaKey || !transcriptRow) {
      return { moments: 0, framesDecoded: 0 };
    }
    const transcript = storedTranscript(transcriptRow);
    const best = await this.options.momentsRepo.bestOfTask(taskId, this.options.moments);
    if (best.length === 0) return { moments: 0, framesDecoded: 0 };

    const started = performance.now();
    const before = this.options.renderer.framing.framesDecoded;
    await this.options.storage.withLocalFile(mediaKey, async (sourceFile) => {
      const info = await this.options.renderer.probeOf(mediaKey, sourceFile);
      if (!info.width || !info.height) return;
      const source = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
      const words = transcriptWords(transcript.segments).map((word) => ({
        start: word.startMs,
        end: word.endMs,
      }));
      for (const moment of best) {
        const raw = { start: moment.startMs, end: moment.endMs };
        // The span an export through the API gets, and the one the studio opens with (snapped
        // to words): both are planned; the analysis covers both.
        const spans = [raw, snapTrimToWords(raw, words, raw)].filter(
          (span, i, all) =>
            all.findIndex((o) => o.start === span.start && o.end === span.end) === i,
        );
        const from = Math.min(...spans.map((span) => span.start));
        const to = Math.max(...spans.map((span) => span.end));
        for (let at = from; at < to; at += this.options.pieceMs) {
          const piece = { startMs: at, endMs: Math.min(to, at + this.options.pieceMs) };
          await this.options.gate.background((signal) =>
            this.options.renderer.framing.analyse(mediaKey, sourceFile, piece, signal),
          );
        }
        for (const span of spans) {
          const options = exportOptions(span, transcript.language, moment.layout);
          const request = framingRequestOf(
            options,
            source,
            exportFrameSize(options.aspect, options.quality, source),
            transcript,
          );
          await this.options.gate.background((signal) =>
            this.options.renderer.framing.plan(mediaKey, request, (work) => work(sourceFile), {
              signal,
            }),
          );
          if (info.hasAudio) {
            await this.options.gate.background((signal) =>
              this.options.renderer.loudnessOf(mediaKey, sourceFile, span.start, span.end, signal),
            );
          }
        }
      }
    });
    const framesDecoded = this.options.renderer.framing.framesDecoded - before;
    log.info(
      {
        moments: best.length,
        framesDecoded,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      },
      'framing of the best moments prepared',
    );
    return { moments: best.length, framesDecoded };
  }
}

/** What an export of `span` with the default options resolves to (the framing's part of it). */
function exportOptions(
  span: { start: number; end: number },
  language: string,
  layout: string | null,
): ResolvedClipOptions {
  const chosen = (layout ?? 'auto') as ExportLayout;
  return {
    ...DEFAULT_EXPORT,
    captionDisplay: 'source',
    sourceLang: language,
    targetLang: null,
    startMs: span.start,
    endMs: span.end,
    transcriptText: null,
    layout: chosen === 'blur_fit' ? 'fit' : chosen,
  };
}
