import type { Note } from '@moments/contract';
import { VideoMeta } from '@moments/contract';
import { formatDuration } from '@moments/domain';
import type { MomentsRepository } from '../moments/moments.repository.js';
import type { SummariesRepository } from '../summaries/summaries.repository.js';
import { newShareId, summaryDto } from '../summaries/summaries.service.js';
import { escapeHtml, plainTextOf, sanitizeNoteHtml, timestampLink } from './note-html.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import type { NoteRow, NotesRepository } from './notes.repository.js';

export const noteDto = (row: NoteRow): Note => ({
  id: row.id,
  title: row.title,
  content_html: row.contentHtml,
  task_id: row.taskId,
  moment_id: row.momentId,
  share_id: row.shareId,
  created_at: row.createdAt.getTime(),
  updated_at: row.updatedAt.getTime(),
});

/** Notes: owner-only rich text with timestamp links; another user's note is a 404. */
export class NotesService {
  constructor(
    private readonly repo: NotesRepository,
    private readonly summaries: SummariesRepository,
    private readonly tasks: Pick<TasksRepository, 'findOwned'>,
    private readonly moments: Pick<MomentsRepository, 'findOwned'>,
  ) {}

  async list(userId: string, query?: string): Promise<Note[]> {
    return (await this.repo.list(userId, query?.trim() || undefined)).map(noteDto);
  }

  async get(userId: string, id: unknown): Promise<Note> {
    return noteDto(await this.repo.findOwned(userId, id));
  }

  /** A blank note, or one filled from a summary (by task id) or a moment, with timestamp links. */
  async create(
    userId: string,
    body: { from: 'blank' | 'summary' | 'moment'; id?: string; title?: string },
  ): Promise<Note> {
    let seed: { title: string; html: string; taskId: string | null; momentId: string | null } = {
      title: body.title ?? 'Untitled note',
      html: '<p></p>',
      taskId: null,
      momentId: null,
    };
    if (body.from === 'summary') {
      const task = await this.tasks.findOwned(userId, body.id);
      const summary = await this.summaries.forTask(task.id);
      const dto = summary ? summaryDto(summary) : undefined;
      const title = VideoMeta.parse(task.video).title || 'Video';
      const chapters = (dto?.chapters ?? [])
        .map(
          (c) =>
            `<li><p>${timestampLink(task.id, c.start, formatDuration(c.start))} <strong>${escapeHtml(c.title)}</strong>: ${escapeHtml(c.summary)}</p></li>`,
        )
        .join('');
      const points = (dto?.key_points ?? [])
        .map(
          (p) =>
            `<li><p>${timestampLink(task.id, p.start, formatDuration(p.start))} ${escapeHtml(p.text)}</p></li>`,
        )
        .join('');
      seed = {
        title: body.title ?? `Notes on ${title}`,
        html:
          `<h2>Overview</h2><p>${escapeHtml(dto?.overview ?? '')}</p>` +
          (chapters ? `<h2>Chapters</h2><ul>${chapters}</ul>` : '') +
          (points ? `<h2>Key points</h2><ul>${points}</ul>` : ''),
        taskId: task.id,
        momentId: null,
      };
    } else if (body.from === 'moment') {
      const moment = await this.moments.findOwned(userId, body.id);
      seed = {
        title: body.title ?? moment.title,
        html:
          `<p>${timestampLink(moment.taskId, moment.startMs, `${formatDuration(moment.startMs)}–${formatDuration(moment.endMs)}`)} <strong>${escapeHtml(moment.title)}</strong></p>` +
          `<blockquote><p>${escapeHtml(moment.transcript)}</p></blockquote><p></p>`,
        taskId: moment.taskId,
        momentId: moment.id,
      };
    }
    const html = sanitizeNoteHtml(seed.html);
    const row = await this.repo.insert({
      userId,
      taskId: seed.taskId,
      momentId: seed.momentId,
      title: seed.title.slice(0, 300),
      contentHtml: html,
      plainText: plainTextOf(html),
    });
    return noteDto(row);
  }

  /** Autosave: title and/or content; the HTML is sanitised before it is stored. */
  async update(
    userId: string,
    id: unknown,
    patch: { title?: string; content_html?: string },
  ): Promise<Note> {
    const row = await this.repo.findOwned(userId, id);
    const html =
      patch.content_html === undefined ? undefined : sanitizeNoteHtml(patch.content_html);
    const updated = await this.repo.update(row.id, {
      ...(patch.title !== undefined ? { title: patch.title } : {}),
      ...(html !== undefined ? { contentHtml: html, plainText: plainTextOf(html) } : {}),
      updatedAt: new Date(),
    });
    return noteDto(updated!);
  }

  async delete(userId: string, id: unknown): Promise<void> {
    const row = await this.repo.findOwned(userId, id);
    await this.repo.delete(row.id);
  }

  async share(userId: string, id: unknown): Promise<{ share_id: string; path: string }> {
    const row = await this.repo.findOwned(userId, id);
    const shareId = row.shareId ?? newShareId();
    if (!row.shareId) await this.repo.update(row.id, { shareId });
    return { share_id: shareId, path: `/s/${shareId}?note=1` };
  }

  async unshare(userId: string, id: unknown): Promise<void> {
    const row = await this.repo.findOwned(userId, id);
    await this.repo.update(row.id, { shareId: null });
  }

  async shared(shareId: string): Promise<NoteRow | undefined> {
    return this.repo.byShareId(shareId);
  }
}
