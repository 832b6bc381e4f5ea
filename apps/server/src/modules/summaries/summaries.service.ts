import { randomBytes, randomUUID } from 'node:crypto';
import type { Summary, SummaryView, VideoMeta } from '@moments/contract';
import { summaryRefreshCost } from '@moments/domain';
import type { LlmClient } from '@moments/ai/llm';
import type { Transcript } from '@moments/ai/moments';
import { summariseTranscript } from '@moments/ai/summary';
import { AppError, notFound } from '../../http/errors.js';
import type { FileUrls } from '../../storage/index.js';
import type { Ledger, RefundOutbox } from '../billing/index.js';
import { videoOfTask, type TaskRow } from '../tasks/task-mapper.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import type { SummariesRepository, SummaryRow } from './summaries.repository.js';

const MEDIA_URL_TTL_SEC = 6 * 3600;

export const newShareId = () => randomBytes(12).toString('base64url');

export function summaryDto(row: SummaryRow): Summary {
  const chapters = row.chapters as {
    startMs: number;
    endMs: number;
    title: string;
    summary: string;
  }[];
  const keyPoints = row.keyPoints as { startMs: number; endMs: number; text: string }[];
  return {
    task_id: row.taskId,
    overview: row.overview,
    chapters: chapters.map((c) => ({
      start: c.startMs,
      end: c.endMs,
      title: c.title,
      summary: c.summary,
    })),
    key_points: keyPoints.map((p) => ({ start: p.startMs, end: p.endMs, text: p.text })),
    method: row.method === 'llm' ? 'llm' : 'extractive',
    warnings: row.warnings as string[],
    share_id: row.shareId,
    updated_at: row.updatedAt.getTime(),
  };
}

/** The task's warning when the video has no speech: said where the summary would be. */
export const NO_SPEECH_SUMMARY =
  'No summary: nothing is said in this video. Its summary credits were given back.';

/** The speech engine heard nothing (a stored transcript that cannot be read is another failure). */
const heardNothing = (transcript: Transcript) =>
  Array.isArray(transcript.segments) &&
  transcript.segments.every((segment) => !segment.text?.trim());

/**
 * Summaries: made by a task's summary stage after analysing, refreshable by the owner,
 * shareable as an unlisted public link. They cost credits: the task's summary is charged
 * with the task (modules/billing TaskCharges), each refresh under its own key.
 */
export class SummariesService {
  constructor(
    private readonly repo: SummariesRepository,
    private readonly tasks: TasksRepository,
    private readonly billing: { ledger: Ledger; refunds: RefundOutbox },
    private readonly fileUrls: FileUrls,
    private readonly llm: LlmClient | undefined,
  ) {}

  /**
   * The task's summary stage: summarises and stores; returns warnings for the task. A summary that
   * cannot be made never fails the task: the warning says why, and the runner refunds its charge.
   */
  async summariseTask(
    task: TaskRow,
    transcript: Transcript,
    signal: AbortSignal,
  ): Promise<{ warnings: string[]; made: boolean; heardNothing?: boolean }> {
    if (heardNothing(transcript)) {
      // Nothing was heard: no summary is made, so none is charged (the runner refunds it).
      return { warnings: [NO_SPEECH_SUMMARY], made: false, heardNothing: true };
    }
    try {
      return { warnings: await this.generate(task, transcript, signal), made: true };
    } catch (error) {
      signal.throwIfAborted();
      // The moments are found already: a summary that fails does not fail the task.
      return {
        warnings: [
          `No summary was made (${(error as Error).message.slice(0, 160)}); refresh it from the summary page.`,
        ],
        made: false,
      };
    }
  }

  private async generate(task: TaskRow, transcript: Transcript, signal: AbortSignal) {
    const summary = await summariseTranscript(transcript, { llm: this.llm, signal });
    await this.repo.upsert({
      taskId: task.id,
      userId: task.userId,
      overview: summary.overview,
      chapters: summary.chapters,
      keyPoints: summary.keyPoints,
      method: summary.method,
      warnings: summary.warnings,
    });
    return summary.warnings;
  }

  async view(userId: string, taskId: unknown): Promise<SummaryView> {
    const task = await this.tasks.findOwned(userId, taskId);
    const row = await this.repo.forTask(task.id);
    if (!row) throw notFound('Summary');
    return this.toView(task, row);
  }

  /** Makes the summary again from the stored transcript (a new charge, once per version). */
  async refresh(userId: string, taskId: unknown): Promise<SummaryView> {
    const task = await this.tasks.findOwned(userId, taskId);
    if (task.status !== 'DONE')
      throw new AppError('TASK_NOT_RETRYABLE', 409, 'The video is still being processed.');
    const transcript = await this.transcriptOf(task.id);
    if (heardNothing(transcript)) {
      throw new AppError(
        'INVALID_INPUT',
        422,
        'This video has no speech, so there is nothing to summarise. Nothing was charged.',
      );
    }
    // Every refresh is its own piece of work with its own key: a failed one is refunded and the
    // next one is charged again (it never finds its key taken).
    const key = { kind: 'summary-refresh' as const, taskId: task.id, refreshId: randomUUID() };
    const cost = summaryRefreshCost(transcript.durationMs || (task.durationMs ?? 0));
    await this.billing.ledger.charge(userId, key, 'CREDIT', cost);
    try {
      await this.generate(task, transcript, AbortSignal.timeout(600_000));
    } catch (error) {
      await this.billing.refunds.refund(userId, key, 'not_made');
      throw error;
    }
    return this.view(userId, task.id);
  }

  async share(userId: string, taskId: unknown): Promise<{ share_id: string; path: string }> {
    const task = await this.tasks.findOwned(userId, taskId);
    const row = await this.repo.forTask(task.id);
    if (!row) throw notFound('Summary');
    const shareId = row.shareId ?? newShareId();
    if (!row.shareId) await this.repo.setShareId(task.id, shareId);
    return { share_id: shareId, path: `/s/${shareId}` };
  }

  async unshare(userId: string, taskId: unknown): Promise<void> {
    const task = await this.tasks.findOwned(userId, taskId);
    await this.repo.setShareId(task.id, null);
  }

  /** The public page of a shared summary, or undefined (not shared, or unshared). */
  async shared(
    shareId: string,
  ): Promise<{ title: string; video: VideoMeta; summary: SummaryRow } | undefined> {
    const row = await this.repo.byShareId(shareId);
    if (!row) return undefined;
    const task = await this.tasks.findById(row.taskId);
    if (!task) return undefined;
    const video = videoOfTask(task);
    return { title: video.title || 'Video summary', video, summary: row };
  }

  private async transcriptOf(taskId: string): Promise<Transcript> {
    const row = await this.tasks.findTranscript(taskId);
    if (!row) throw new AppError('NOT_FOUND', 404, 'The transcript of this video is gone.');
    return {
      language: row.language,
      durationMs: row.durationMs,
      segments: row.segments as Transcript['segments'],
    };
  }

  private async toView(task: TaskRow, row: SummaryRow): Promise<SummaryView> {
    const transcript = await this.tasks.findTranscript(task.id);
    const segments = (transcript?.segments ?? []) as Transcript['segments'];
    return {
      ...summaryDto(row),
      video: videoOfTask(task),
      transcript: segments.map((s) => ({ start: s.startMs, end: s.endMs, text: s.text.trim() })),
      media_url: task.mediaKey
        ? await this.fileUrls.signFileUrl(task.mediaKey, { expiresInSec: MEDIA_URL_TTL_SEC })
        : null,
    };
  }
}
