import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jobs, linkPreviews, moments, summaries, tasks, uploads } from '../../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;
export type MomentRow = typeof moments.$inferSelect;
export type LinkPreviewRow = typeof linkPreviews.$inferSelect;

/** Who may see a stored picture: its owner, and anyone while what it belongs to is shared. */
export interface PictureAccess {
  key: string | null;
  userId: string;
  shareId: string | null;
}

/** The stored keys of the pictures of videos, moments, exports and link previews. */
export class ThumbnailsRepository {
  constructor(private readonly db: Db) {}

  momentsOfTask(taskId: string): Promise<MomentRow[]> {
    return this.db.select().from(moments).where(eq(moments.taskId, taskId));
  }

  async setMomentThumbnail(momentId: string, key: string): Promise<void> {
    await this.db.update(moments).set({ thumbnailKey: key }).where(eq(moments.id, momentId));
  }

  /** Lists the preview (again) from now, so housekeeping leaves it while it is shown. */
  async touchLinkPreview(userId: string, id: string, storageKey: string): Promise<void> {
    await this.db
      .insert(linkPreviews)
      .values({ userId, id, storageKey })
      .onConflictDoUpdate({
        target: [linkPreviews.userId, linkPreviews.id],
        set: { createdAt: new Date() },
      });
  }

  linkPreviewsListedBefore(before: Date): Promise<LinkPreviewRow[]> {
    return this.db.select().from(linkPreviews).where(lt(linkPreviews.createdAt, before));
  }

  /** Removes the preview's row unless it was listed again at or after `before`. */
  async deleteLinkPreviewListedBefore(userId: string, id: string, before: Date): Promise<void> {
    await this.db
      .delete(linkPreviews)
      .where(
        and(
          eq(linkPreviews.userId, userId),
          eq(linkPreviews.id, id),
          lt(linkPreviews.createdAt, before),
        ),
      );
  }

  async deleteLinkPreview(userId: string, id: string): Promise<void> {
    await this.db
      .delete(linkPreviews)
      .where(and(eq(linkPreviews.userId, userId), eq(linkPreviews.id, id)));
  }

  /**
   * Finished tasks with stored media whose video or a moment has no picture, except media that
   * gives no frame (probing it again at each start would find the same).
   */
  async tasksMissingPictures(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ id: tasks.id })
      .from(tasks)
      .leftJoin(moments, and(eq(moments.taskId, tasks.id), isNull(moments.thumbnailKey)))
      .where(
        and(
          eq(tasks.status, 'DONE'),
          isNotNull(tasks.mediaKey),
          isNull(tasks.framelessReason),
          or(isNull(tasks.thumbnailKey), isNotNull(moments.id)),
        ),
      );
    return rows.map((row) => row.id);
  }

  async task(taskId: string): Promise<TaskRow | undefined> {
    const [task] = await this.db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
    return task;
  }

  async setTaskThumbnail(taskId: string, key: string, video: object): Promise<void> {
    await this.db.update(tasks).set({ thumbnailKey: key, video }).where(eq(tasks.id, taskId));
  }

  async markFrameless(taskId: string, reason: string): Promise<void> {
    await this.db.update(tasks).set({ framelessReason: reason }).where(eq(tasks.id, taskId));
  }

  /** Finished exports with a file and no poster. */
  exportsMissingPosters(): Promise<
    { id: string; userId: string; fileKey: string | null; durationMs: number | null }[]
  > {
    return this.db
      .select({
        id: jobs.id,
        userId: jobs.userId,
        fileKey: jobs.fileKey,
        durationMs: jobs.durationMs,
      })
      .from(jobs)
      .where(and(eq(jobs.status, 'DONE'), isNotNull(jobs.fileKey), isNull(jobs.posterKey)));
  }

  async setExportPoster(jobId: string, key: string): Promise<void> {
    await this.db.update(jobs).set({ posterKey: key }).where(eq(jobs.id, jobId));
  }

  /** The stored picture of a video, a moment or an export (its poster), by id. */
  async pictureKey(kind: 'task' | 'moment' | 'job', id: string): Promise<string | null> {
    const [row] =
      kind === 'task'
        ? await this.db.select({ key: tasks.thumbnailKey }).from(tasks).where(eq(tasks.id, id))
        : kind === 'moment'
          ? await this.db
              .select({ key: moments.thumbnailKey })
              .from(moments)
              .where(eq(moments.id, id))
          : await this.db.select({ key: jobs.posterKey }).from(jobs).where(eq(jobs.id, id));
    return row?.key ?? null;
  }

  /** A video's picture with its owner; shared while the video's summary is. */
  async taskPicture(id: string): Promise<PictureAccess | undefined> {
    const [row] = await this.db
      .select({ key: tasks.thumbnailKey, userId: tasks.userId, shareId: summaries.shareId })
      .from(tasks)
      .leftJoin(summaries, eq(summaries.taskId, tasks.id))
      .where(eq(tasks.id, id))
      .limit(1);
    return row;
  }

  /** A moment's picture or an export's poster with its owner and share link. */
  async sharedItemPicture(kind: 'moment' | 'job', id: string): Promise<PictureAccess | undefined> {
    const table = kind === 'moment' ? moments : jobs;
    const keyColumn = kind === 'moment' ? moments.thumbnailKey : jobs.posterKey;
    const [row] = await this.db
      .select({ key: keyColumn, userId: table.userId, shareId: table.shareId })
      .from(table)
      .where(and(eq(table.id, id), isNotNull(keyColumn)))
      .limit(1);
    return row;
  }

  /** The picture made at ingest of the user's upload. */
  async uploadThumbnail(uploadId: string, userId: string): Promise<string | null> {
    const [upload] = await this.db
      .select({ key: uploads.thumbnailKey })
      .from(uploads)
      .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId)))
      .limit(1);
    return upload?.key ?? null;
  }
}
