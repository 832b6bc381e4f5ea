import { storedTranscript } from '@moments/domain/transcript';
import { uprightFrameSize } from '@moments/domain/frame';
import { randomUUID } from 'node:crypto';
import type {
  SubtitleQuery,
  TranslationSupport,
  CaptionPreview,
  CaptionPreviewBody,
  ClipFraming,
  ClipFramingBody,
  Job,
  JobCreateBody,
  JobType,
  VideoMeta,
} from '@moments/contract';
import { ERROR_CODES, ExportOptions } from '@moments/contract';
import { animatedCaptionExportCost } from '@moments/domain/plans';
import type { Translator } from '@moments/ai/translate';
import { CAPTION_TEMPLATES, isCaptionTemplateId } from '@moments/media/captions';
import { probeMedia } from '@moments/media/probe';
import type { Size } from '@moments/media/reframe';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jobs, moments, tasks } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { findOwned } from '../../repositories/owned.js';
import type { FileUrls, Storage } from '../../storage/index.js';
import { CreditsService } from '../credits/credits.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { TaskRow } from '../tasks/task-mapper.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import {
  assertTranslationAvailable,
  buildClipCaptions,
  captionFontUrl,
  exportFrameSize,
  snapToWords,
  captionText,
  type ResolvedClipOptions,
  type StoredTranscript,
} from './clip-captions.js';
import {
  bilingualCues,
  displayForLanguage,
  formatSubtitles,
  sourceCues,
  translationCues,
} from './subtitles.js';
import { toFramingDto } from './clip-framing.js';
import { ExportRenderer, framingRequestOf, type JobOptions } from './export-renderer.js';
import type { ExportsRepository, JobRow } from './exports.repository.js';
import {
  chargeKey,
  jobCaptionsKey,
  jobFileKey,
  jobForNotification,
  toJobDto,
} from './job-mapper.js';

/** How many probed source sizes the editor's preview keeps (oldest dropped first). */
export const SOURCE_SIZE_CACHE_LIMIT = 500;

/** Signed download links of finished exports live this long; the client re-fetches the job after. */
const FILE_URL_TTL_SEC = 6 * 3600;
/** spec §6: free plans have a number of canvas exports; paid plans are unlimited (-1). */
const EXPORT_FEATURE = 'CANVAS_EXPORT';

/** What an export or a preview is made from. */
export interface ClipSource {
  task: TaskRow;
  momentId: string | null;
  title: string;
  transcript: StoredTranscript;
  options: ResolvedClipOptions;
}

/**
 * Export jobs (spec §3 Job, §7 /api/job) and the clip editor's caption preview. Both resolve the
 * request the same way and build captions with the same function, so the preview is the export.
 */
export class ExportsService {
  /** Probed source sizes, newest last; bounded so a long-lived process does not grow. */
  private readonly sourceSizes = new Map<string, Size>();
  /** Framing analyses under way per user (this process), for the per-user limit. */
  private readonly framingsRunning = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly repo: ExportsRepository,
    private readonly tasks: TasksRepository,
    private readonly storage: Storage,
    private readonly fileUrls: FileUrls,
    private readonly queue: JobQueue,
    private readonly credits: CreditsService,
    private readonly notifications: NotificationsService,
    private readonly translator: Translator,
    private readonly renderer: ExportRenderer,
    private readonly maxFramingsPerUser = Number.POSITIVE_INFINITY,
  ) {}

  async create(userId: string, body: JobCreateBody): Promise<Job> {
    const source = await this.resolveClip(userId, body.type, body);
    await assertTranslationAvailable(this.translator, source.options, source.transcript.language);
    const runToken = randomUUID();
    // Row, charge and queue job commit together: a failed send or a crash in between leaves
    // nothing behind, never a job stuck IN_PROGRESS with its credit spent.
    const durationMs = source.options.endMs - source.options.startMs;
    const charge = chargeFor(body.type, durationMs);
    // Looked up before the transaction: on PGlite (one connection) a query outside an open
    // transaction waits for it to end, so this read inside it would never return.
    const previewedFraming = await this.renderer.framing.stored(
      source.task.mediaKey!,
      source.options,
    );
    const row = await this.db.transaction(async (tx) => {
      const inserted = await this.repo.insert(
        {
          userId,
          momentId: source.momentId,
          taskId: source.task.id,
          type: body.type,
          status: 'IN_PROGRESS',
          progress: 0,
          title: source.title,
          // The framing the editor previewed (kept in the database): the export renders that
          // very plan instead of analysing again (issue 5: the preview matches the export).
          options: {
            ...source.options,
            framing: previewedFraming,
          } satisfies JobOptions,
          durationMs,
          costCredits: charge.amount,
          runToken,
        },
        tx,
      );
      try {
        // The same ledger rules, inside this transaction (CreditsService nests as a savepoint).
        await new CreditsService(tx).charge(
          userId,
          charge.feature,
          charge.amount,
          chargeKey(inserted.id),
          `export ${inserted.id}`,
        );
      } catch (error) {
        if (
          charge.feature === EXPORT_FEATURE &&
          error instanceof AppError &&
          error.code === ERROR_CODES.BALANCE_NOT_ENOUGH
        ) {
          throw new AppError(
            ERROR_CODES.EXPORT_LIMIT_REACHED,
            402,
            'You have used all the exports of your plan. Upgrade to export more clips.',
          );
        }
        throw error;
      }
      // spec §7 clipped/list: a moment the user exported is a clipped moment.
      if (source.momentId) {
        await tx.update(moments).set({ clipped: true }).where(eq(moments.id, source.momentId));
      }
      await this.queue.send(
        'export-render',
        { jobId: inserted.id, runToken },
        { tx, expireInSeconds: ExportRenderer.expirySeconds(inserted.durationMs ?? 0) },
      );
      return inserted;
    });
    this.queue.wake('export-render'); // committed: a worker in this process starts it now
    await this.notifications.jobChanged(userId, jobForNotification(row), false);
    return toJobDto(row, null);
  }

  async list(
    userId: string,
    query: { page_num: number; page_size: number; type?: JobType },
  ): Promise<Job[]> {
    const rows = await this.repo.listForUser(
      userId,
      query.page_size,
      (query.page_num - 1) * query.page_size,
      query.type,
    );
    return Promise.all(rows.map((row) => this.toDto(row)));
  }

  async get(userId: string, id: unknown): Promise<Job> {
    return this.toDto(await this.owned(userId, id));
  }

  /** Stops the export if it runs, deletes its files; an unfinished export is refunded. */
  async delete(userId: string, id: unknown): Promise<void> {
    const row = await this.owned(userId, id);
    this.renderer.cancel(row.id);
    await this.repo.delete(row.id);
    if (row.status !== 'DONE') await this.credits.refund(chargeKey(row.id));
    await this.storage.delete(jobFileKey(userId, row.id));
    await this.storage.delete(jobCaptionsKey(userId, row.id));
  }

  async preview(userId: string, body: CaptionPreviewBody): Promise<CaptionPreview> {
    const source = await this.resolveClip(userId, undefined, body);
    const size =
      source.options.aspect === 'original'
        ? await this.sourceSize(source.task)
        : { width: 0, height: 0 };
    const captions = await buildClipCaptions(
      source.transcript,
      source.options,
      size,
      this.translator,
    );
    return {
      ass: captions.ass,
      width: captions.width,
      height: captions.height,
      start_ms: source.options.startMs,
      end_ms: source.options.endMs,
      words: captions.words.map((word) => ({
        text: word.text,
        start: word.startMs,
        end: word.endMs,
      })),
      fonts: captions.fonts.map((font) => ({
        family: font.family,
        url: captionFontUrl(font.file),
      })),
    };
  }

  /**
   * The framing the export with these options would use, from the exporter's own planner (the
   * plan is kept, and an export started after this renders exactly it). `signal` stops waiting
   * when the editor no longer needs the answer.
   */
  async framing(userId: string, body: ClipFramingBody, signal?: AbortSignal): Promise<ClipFraming> {
    const source = await this.resolveClip(userId, undefined, body);
    const mediaKey = source.task.mediaKey!;
    const size = await this.sourceSize(source.task);
    const request = framingRequestOf(
      source.options,
      size,
      exportFrameSize(source.options.aspect, source.options.quality, size),
    );
    const cached = this.renderer.framing.cached(mediaKey, source.options);
    if (cached) return toFramingDto(cached, request);
    const running = this.framingsRunning.get(userId) ?? 0;
    if (running >= this.maxFramingsPerUser) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_RUNNING,
        429,
        'Several framing previews are already being worked out for you; try again in a moment.',
      );
    }
    this.framingsRunning.set(userId, running + 1);
    try {
      const framing = await this.renderer.framing.plan(
        mediaKey,
        request,
        (work) => this.storage.withLocalFile(mediaKey, work),
        { signal },
      );
      return toFramingDto(framing, request);
    } finally {
      const left = (this.framingsRunning.get(userId) ?? 1) - 1;
      if (left > 0) this.framingsRunning.set(userId, left);
      else this.framingsRunning.delete(userId);
    }
  }

  /**
   * A task's captions as a subtitle file (issue 13): SRT or WebVTT cues timed to the words, or the
   * ASS document the export burns in; in the spoken language, the translation, or both.
   */
  async subtitles(
    userId: string,
    query: SubtitleQuery,
  ): Promise<{ body: string; contentType: string; fileName: string }> {
    const display = displayForLanguage(query.lang);
    const source = await this.resolveClip(userId, 'ANIMATED_CAPTION_EXPORT', {
      task_id: query.task_id,
      options: ExportOptions.parse({
        aspect: 'original',
        caption_display: display,
        target_lang: query.target_lang,
        transcript_text: query.transcript_text,
        remove_fillers: query.remove_fillers,
      }),
    });
    const { options, transcript } = source;
    const base = `${fileBaseName(source.title)}.${query.lang === 'source' ? options.sourceLang : query.lang === 'target' ? options.targetLang : `${options.sourceLang}-${options.targetLang}`}`;
    if (query.format === 'ass') {
      const size = await this.sourceSize(source.task);
      const captions = await buildClipCaptions(transcript, options, size, this.translator);
      return {
        body: captions.ass,
        contentType: 'text/x-ssa; charset=utf-8',
        fileName: `${base}.ass`,
      };
    }
    const { words, translationLines } = await captionText(transcript, options, this.translator);
    const lines = transcript.segments.map(({ startMs, endMs }) => ({ startMs, endMs }));
    const cues =
      query.lang === 'source'
        ? sourceCues(words, lines, transcript.language)
        : query.lang === 'target'
          ? translationCues(translationLines ?? [], options.targetLang ?? '')
          : bilingualCues(words, translationLines ?? [], transcript.language);
    return {
      body: formatSubtitles(cues, query.format),
      contentType:
        query.format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/vtt; charset=utf-8',
      fileName: `${base}.${query.format}`,
    };
  }

  /** A signed address of a DONE task's stored video, for the caption result page's player. */
  async taskMediaUrl(userId: string, taskId: unknown): Promise<{ url: string | null }> {
    const task = await findOwned(this.db, tasks, userId, taskId, 'Task');
    if (!task.mediaKey) return { url: null };
    return {
      url: await this.fileUrls.signFileUrl(task.mediaKey, { expiresInSec: FILE_URL_TTL_SEC }),
    };
  }

  /** The target languages offered, and whether this install can translate into each. */
  translationSupport(): TranslationSupport {
    const engine = this.translator.engine ?? null;
    return {
      engine,
      languages: TRANSLATION_TARGETS.map(([code, name]) => ({
        code,
        name,
        available: engine !== null,
        note:
          engine === null
            ? `English to ${name} needs a configured LLM endpoint (LLM_BASE_URL): no offline engine installed here translated it well enough.`
            : null,
      })),
    };
  }

  templates() {
    return CAPTION_TEMPLATES.map(({ id, name, description }) => ({ id, name, description }));
  }

  /**
   * Loads what the request points at (owner-scoped: another user's moment or task is 404) and
   * checks the options: template, trim inside the video, translation needs.
   */
  async resolveClip(
    userId: string,
    type: JobType | undefined,
    body: { moment_id?: string; task_id?: string; options: ExportOptions },
  ): Promise<ClipSource> {
    let task: TaskRow;
    let moment: typeof moments.$inferSelect | undefined;
    const wantsTask = type === 'ANIMATED_CAPTION_EXPORT' || (!type && !body.moment_id);
    if (wantsTask) {
      if (!body.task_id) throw badRequest('task_id is required for a caption export');
      task = await findOwned(this.db, tasks, userId, body.task_id, 'Task');
    } else {
      if (!body.moment_id) throw badRequest('moment_id is required for a moment export');
      moment = await findOwned(this.db, moments, userId, body.moment_id, 'Moment');
      const owner = await this.tasks.findById(moment.taskId);
      if (!owner) throw notFound('Moment');
      task = owner;
    }
    const transcriptRow = await this.tasks.findTranscript(task.id);
    if (task.status !== 'DONE' || !task.mediaKey || !transcriptRow) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        'This video is still being processed; export it once its task is done.',
      );
    }
    const transcript: StoredTranscript = storedTranscript(transcriptRow);

    const options = body.options;
    if (!isCaptionTemplateId(options.template)) {
      throw new AppError(
        ERROR_CODES.UNKNOWN_TEMPLATE,
        400,
        `Unknown caption template "${options.template}".`,
      );
    }
    const videoMs = task.durationMs ?? transcriptRow.durationMs;
    const startMs = options.start_ms ?? moment?.startMs ?? 0;
    const endMs = options.end_ms ?? moment?.endMs ?? videoMs;
    if (startMs < 0 || endMs > videoMs || endMs <= startMs) {
      throw new AppError(
        ERROR_CODES.INVALID_RANGE,
        400,
        `The clip must start before it ends and lie inside the video (0 to ${videoMs} ms).`,
      );
    }
    const span = snapToWords(
      transcript,
      { startMs, endMs },
      { startMs: options.start_ms, endMs: options.end_ms },
    );
    const title =
      moment?.title || (task.video as VideoMeta).title || (moment ? 'Untitled moment' : 'Untitled');
    return {
      task,
      momentId: moment?.id ?? null,
      title,
      transcript,
      options: {
        aspect: options.aspect,
        quality: options.quality,
        template: options.template,
        captionDisplay:
          options.caption_display ?? (task.captionDisplay as ResolvedClipOptions['captionDisplay']),
        sourceLang: transcript.language,
        targetLang: options.target_lang ?? task.targetLang,
        startMs: span.startMs,
        endMs: span.endMs,
        transcriptText: options.transcript_text ?? null,
        layout: options.layout,
        captionPosition: options.caption_position,
        captionSize: options.caption_size,
        removeFillers: options.remove_fillers,
      },
    };
  }

  async sourceSize(task: TaskRow): Promise<Size> {
    const key = task.mediaKey!;
    let size = this.sourceSizes.get(key);
    if (!size) {
      const info = await this.storage.withLocalFile(key, (file) => probeMedia(file));
      if (!info.width || !info.height) {
        throw new AppError(ERROR_CODES.NOT_A_VIDEO, 400, 'This media has no picture to export.');
      }
      size = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
      this.sourceSizes.set(key, size);
      if (this.sourceSizes.size > SOURCE_SIZE_CACHE_LIMIT) {
        this.sourceSizes.delete(this.sourceSizes.keys().next().value!);
      }
    }
    return size;
  }

  private owned(userId: string, id: unknown): Promise<JobRow> {
    return findOwned(this.db, jobs, userId, id, 'Job');
  }

  private async toDto(row: JobRow): Promise<Job> {
    const url =
      row.status === 'DONE' && row.fileKey
        ? await this.fileUrls.signFileUrl(row.fileKey, {
            expiresInSec: FILE_URL_TTL_SEC,
            downloadName: downloadName(row.title),
          })
        : null;
    return toJobDto(row, url);
  }
}

/**
 * What an export costs: a moment export is one of the plan's canvas exports; a whole-video caption
 * export re-renders the whole video and is charged in credits by its duration (issue 13).
 */
function chargeFor(type: JobType, durationMs: number): { feature: string; amount: number } {
  if (type === 'ANIMATED_CAPTION_EXPORT') {
    return { feature: 'CREDIT', amount: animatedCaptionExportCost(durationMs) };
  }
  return { feature: EXPORT_FEATURE, amount: 1 };
}

/** A file name safe for a download header, from the job's title. */
function downloadName(title: string): string {
  return `${fileBaseName(title)}.mp4`;
}

function fileBaseName(title: string): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} _.-]+/gu, '')
    .trim()
    .slice(0, 80);
  return base || 'clip';
}

/** Target languages the result page offers (the spec's "100+ languages" need an LLM endpoint). */
const TRANSLATION_TARGETS: ReadonlyArray<readonly [string, string]> = [
  ['es', 'Spanish'],
  ['de', 'German'],
  ['fr', 'French'],
  ['zh', 'Chinese'],
  ['ar', 'Arabic'],
  ['pt', 'Portuguese'],
  ['it', 'Italian'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['ru', 'Russian'],
  ['hi', 'Hindi'],
  ['tr', 'Turkish'],
  ['nl', 'Dutch'],
  ['pl', 'Polish'],
  ['id', 'Indonesian'],
  ['vi', 'Vietnamese'],
];
