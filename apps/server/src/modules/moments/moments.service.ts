import { scoreBreakdown } from '@moments/domain/scores';
import { storedTranscript } from '@moments/domain/transcript';
import { randomBytes } from 'node:crypto';
import type {
  ExportLayout,
  ClipLength,
  FeedbackAction,
  Moment,
  MomentListType,
  MomentView,
} from '@moments/contract';
import { CLIP_LENGTH_RANGES_MS, VideoMeta as VideoMetaSchema } from '@moments/contract';
import type { LlmClient } from '@moments/ai/llm';
import {
  findViralMoments,
  rescoreSpan,
  type Moment as FoundMoment,
  type Transcript,
} from '@moments/ai/moments';
import { findAnswerMomentsWithReport } from '@moments/ai/search';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../http/errors.js';
import { isUuid } from '../../db/owned.js';
import type { FileUrls } from '../../storage/index.js';
import { videoOfTask, type TaskRow } from '../tasks/task-mapper.js';
import { momentThumbnail } from '../thumbnails/thumbnails.service.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import type { MomentRow, MomentsRepository, NewMoment } from './moments.repository.js';
import type { MomentSpans } from './moment-spans.js';

/** Signed media links in moment views live this long; the client refreshes them after. */
const MEDIA_URL_TTL_SEC = 6 * 3600;

const toDto = (row: MomentRow): Moment => ({
  id: row.id,
  task_id: row.taskId,
  type: row.type as MomentListType,
  start: row.startMs,
  end: row.endMs,
  score: row.score,
  reasons: row.reasons as Moment['reasons'],
  title: row.title,
  description: row.description,
  hashtags: row.hashtags as string[],
  transcript: row.transcript,
  favorite: row.favorite,
  feedback: (row.feedback as FeedbackAction | null) ?? null,
  share_id: row.shareId,
  is_new: row.isNew,
  thumbnail: momentThumbnail(row),
  layout: (row.layout as ExportLayout | null) ?? null,
  created_at: row.createdAt.getTime(),
});

/** The score as stored and shown: each reason once, whole points that add up to it. */
const settled = (moment: Pick<FoundMoment, 'score' | 'reasons'>) => {
  const { score, parts } = scoreBreakdown(moment.reasons, moment.score);
  return { score, reasons: parts };
};

const toRows = (task: TaskRow, type: MomentListType, found: FoundMoment[]): NewMoment[] =>
  found.map((moment, rank) => ({
    taskId: task.id,
    userId: task.userId,
    type,
    rank,
    startMs: moment.startMs,
    endMs: moment.endMs,
    ...settled(moment),
    title: moment.title,
    description: moment.description,
    hashtags: moment.hashtags,
    transcript: moment.text,
  }));

export interface MomentsServiceOptions {
  db: Db;
  repo: MomentsRepository;
  tasks: TasksRepository;
  fileUrls: FileUrls;
  llm: LlmClient | undefined;
  spans?: MomentSpans;
  /** Queues the `span-cut` job for a just-shared moment. */
  sendSpanCut?: (momentId: string) => Promise<void>;
}

/**
 * Moment finding (the analysing stage of viral and search tasks) and everything users do with a
 * moment: list, view, rate, favourite, share, refresh.
 */
export class MomentsService {
  private readonly deps: MomentsServiceOptions;

  constructor(options: MomentsServiceOptions) {
    this.deps = options;
  }

  /** The analysing stage: stores the task's moments and returns what the user should be told. */
  /**
   * The best moments in the transcript so far, by the deterministic judge only
   * (no LLM, nothing stored), shown while a long video is still being transcribed. The final
   * ranking (analyse) replaces them.
   */
  async provisional(
    task: TaskRow,
    transcript: Transcript,
    limit = 5,
  ): Promise<{ start_ms: number; end_ms: number; title: string; score: number }[]> {
    if (task.kind !== 'viral') return [];
    const lengthRange =
      CLIP_LENGTH_RANGES_MS[task.clipLength as ClipLength] ?? CLIP_LENGTH_RANGES_MS.auto;
    const result = await findViralMoments(transcript, {
      ...lengthRange,
      actAs: task.actAs ?? undefined,
    });
    return result.moments.slice(0, limit).map((moment) => ({
      start_ms: moment.startMs,
      end_ms: moment.endMs,
      title: moment.title,
      score: moment.score,
    }));
  }

  async analyse(task: TaskRow, transcript: Transcript, signal: AbortSignal): Promise<string[]> {
    if (task.kind === 'caption') return [];
    if (task.kind === 'search' && task.query) {
      const report = await findAnswerMomentsWithReport(transcript, task.query, { signal });
      return this.keepFound(
        task,
        'search_snippet',
        report,
        'No part of this video answers that question.',
      );
    }
    const lengthRange =
      CLIP_LENGTH_RANGES_MS[task.clipLength as ClipLength] ?? CLIP_LENGTH_RANGES_MS.auto;
    const result = await findViralMoments(transcript, {
      ...lengthRange,
      actAs: task.actAs ?? undefined,
      llm: this.deps.llm,
      signal,
    });
    return this.keepFound(
      task,
      'video_snippet',
      result,
      'No moment in this video stood out as worth a clip.',
    );
  }

  /** Keeps what the analysis found as the task's list of `type`; an empty list says why. */
  private async keepFound(
    task: TaskRow,
    type: MomentListType,
    found: { moments: FoundMoment[]; warnings: string[] },
    whenNone: string,
  ): Promise<string[]> {
    await this.deps.repo.syncForTask(task.id, type, toRows(task, type, found.moments));
    return found.moments.length ? [...found.warnings] : [...found.warnings, whenNone];
  }

  async listForTask(userId: string, taskId: unknown): Promise<Moment[]> {
    const task = await this.deps.tasks.findOwned(userId, taskId);
    return (await this.deps.repo.forTask(task.id)).map(toDto);
  }

  /** Anyone may view a moment that was shared; otherwise only its owner. */
  async view(requesterId: string | null, id: unknown): Promise<MomentView> {
    if (!isUuid(id)) throw notFound('Moment');
    const row = await this.deps.repo.findById(id);
    const owned = !!row && row.userId === requesterId;
    if (!row || (!owned && !row.shareId)) throw notFound('Moment');
    const task = await this.deps.repo.taskOf(row);
    if (!task) throw notFound('Moment');
    return this.viewOf(row, task, owned);
  }

  /**
   * The home page's default list: shared moments of one list type, best first, read with their
   * tasks in one query (it was one query per moment).
   */
  async defaultList(type: MomentListType, limit = 24): Promise<MomentView[]> {
    const rows = await this.deps.repo.sharedByTypeWithTasks(type, limit);
    return Promise.all(rows.map(({ moment, task }) => this.viewOf(moment, task, false)));
  }

  private async viewOf(
    row: MomentRow,
    task: { id: string; video: unknown; mediaKey: string | null; thumbnailKey: string | null },
    owned: boolean,
  ): Promise<MomentView> {
    // A viewer who is not the owner gets only the moment's span, through a link that
    // dies with the share (unsharing revokes it), never a signed link to the whole upload.
    const media = !task.mediaKey
      ? { media_url: null, media_start: 0 }
      : owned
        ? {
            media_url: await this.deps.fileUrls.signFileUrl(task.mediaKey, {
              expiresInSec: MEDIA_URL_TTL_SEC,
            }),
            media_start: 0,
          }
        : {
            media_url: `/api/highlight_moment/shared_media/${row.shareId}`,
            media_start: row.startMs,
          };
    return {
      ...toDto(row),
      // A visitor sees the moment's own frame, never the rest of the owner's video.
      video: owned
        ? videoOfTask(task)
        : { ...VideoMetaSchema.parse(task.video), thumbnail: momentThumbnail(row) },
      ...media,
      owned,
      published: row.published,
    };
  }

  async feedback(
    userId: string,
    id: unknown,
    body: { action: FeedbackAction; content?: string; reason?: string },
  ): Promise<Moment> {
    const row = await this.deps.repo.findOwned(userId, id);
    const updated = await this.deps.repo.update(row.id, {
      feedback: body.action,
      feedbackContent: body.content ?? null,
      feedbackReason: body.action === 'THUMB_DOWN' ? (body.reason ?? null) : null,
    });
    return toDto(updated!);
  }

  async clearFeedback(userId: string, id: unknown): Promise<Moment> {
    const row = await this.deps.repo.findOwned(userId, id);
    const updated = await this.deps.repo.update(row.id, {
      feedback: null,
      feedbackContent: null,
      feedbackReason: null,
    });
    return toDto(updated!);
  }

  async setFavorite(userId: string, id: unknown, favorite: boolean): Promise<Moment> {
    const row = await this.deps.repo.findOwned(userId, id);
    return toDto((await this.deps.repo.update(row.id, { favorite }))!);
  }

  async favorites(userId: string): Promise<Moment[]> {
    return (await this.deps.repo.favorites(userId)).map(toDto);
  }

  async clipped(userId: string): Promise<Moment[]> {
    return (await this.deps.repo.clipped(userId)).map(toDto);
  }

  /** Keeps the studio's framing choice with the clip, so it opens framed that way. */
  async setLayout(userId: string, id: unknown, layout: ExportLayout): Promise<Moment> {
    const row = await this.deps.repo.findOwned(userId, id);
    return toDto((await this.deps.repo.update(row.id, { layout }))!);
  }

  async unclip(userId: string, id: unknown): Promise<void> {
    const row = await this.deps.repo.findOwned(userId, id);
    await this.deps.repo.update(row.id, { clipped: false });
  }

  async all(userId: string): Promise<Moment[]> {
    return (await this.deps.repo.allForUser(userId, 500)).map(toDto);
  }

  /**
   * Makes the moment viewable by link (/home/moment/{momentId}): an unlisted link. Only
   * `publish: true` also lists it on the public home shelf and in anonymous search. Idempotent;
   * sharing again sets the publish choice to what was asked.
   */
  async share(
    userId: string,
    id: unknown,
    options: { publish?: boolean } = {},
  ): Promise<{ share_id: string; path: string; published: boolean }> {
    const row = await this.deps.repo.findOwned(userId, id);
    const shareId = row.shareId ?? randomBytes(9).toString('base64url');
    const published = options.publish ?? false;
    if (!row.shareId || row.published !== published)
      await this.deps.repo.update(row.id, { shareId, published });
    // Cut the span now, in the background (the `span-cut` job kind), so the first visitor does
    // not wait for it; a failure costs nothing, the span is cut on view.
    if (this.deps.spans && this.deps.sendSpanCut) await this.deps.sendSpanCut(row.id);
    return { share_id: shareId, path: `/home/moment/${row.id}`, published };
  }

  /** Cuts a shared moment's span ahead of its first visitor (nothing once it is unshared). */
  async cutSharedSpan(momentId: string): Promise<void> {
    const row = await this.deps.repo.findById(momentId);
    if (!row?.shareId || !this.deps.spans) return;
    const task = await this.deps.repo.taskOf(row);
    if (task?.mediaKey) await this.deps.spans.cut(row, task.mediaKey);
  }

  /** Revokes the link: the moment, its span and its home listing answer 404 to anyone else. */
  async unshare(userId: string, id: unknown): Promise<void> {
    const row = await this.deps.repo.findOwned(userId, id);
    await this.deps.repo.update(row.id, { shareId: null, published: false });
    // Best effort: the span is served only through the share, which is revoked above; a file
    // left behind costs disk, never exposure.
    if (row.shareId) await this.deps.spans?.forget(row).catch(() => undefined);
  }

  /** The shared span's video file (cut once, then served), or 404 once the share is revoked. */
  async sharedSpan(shareId: string): Promise<{ key: string }> {
    if (!/^[A-Za-z0-9_-]{6,64}$/.test(shareId)) throw notFound('Moment');
    const row = await this.deps.repo.byShareId(shareId);
    const task = row && (await this.deps.repo.taskOf(row));
    if (!row || !task?.mediaKey || !this.deps.spans) throw notFound('Moment');
    return { key: await this.deps.spans.cut(row, task.mediaKey) };
  }

  /** Re-scores the moment's span against the current transcript (the refresh call). */
  async refresh(userId: string, id: unknown): Promise<Moment> {
    const row = await this.deps.repo.findOwned(userId, id);
    const transcriptRow = await this.deps.tasks.findTranscript(row.taskId);
    if (!transcriptRow)
      throw new AppError('NOT_FOUND', 404, 'The transcript of this moment is gone.');
    const transcript: Transcript = storedTranscript(transcriptRow);
    const task = await this.deps.repo.taskOf(row);
    const rescored = await rescoreSpan(transcript, row.startMs, row.endMs, {
      actAs: task?.actAs ?? undefined,
    });
    const updated = await this.deps.repo.update(row.id, {
      startMs: rescored.startMs,
      endMs: rescored.endMs,
      ...settled(rescored),
      transcript: rescored.text,
      // A title the user sees already is kept unless the moment had none.
      title: row.title || rescored.title,
      hashtags: (row.hashtags as string[]).length ? row.hashtags : rescored.hashtags,
    });
    return toDto(updated!);
  }
}
