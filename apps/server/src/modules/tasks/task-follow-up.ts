import { silentLogger, type Logger } from '../../logging.js';
import type { Storage } from '../../storage/index.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { SearchIndexer } from '../search/index.js';
import type { ThumbnailsService } from '../thumbnails/thumbnails.service.js';
import type { TasksRepository } from './tasks.repository.js';

export interface TaskFollowUpOptions {
  tasks: TasksRepository;
  storage: Storage;
  searchIndexer: SearchIndexer;
  thumbnails: ThumbnailsService;
  notifications: NotificationsService;
  log?: Logger;
}

/**
 * What follows a task's moments once they are ranked (the `task-follow-up` job): the embeddings
 * of its passages and moments for the semantic search, and a picture per moment. None of it
 * holds the task back from DONE: the words of the transcript are searchable before DONE, the
 * moment cards show no picture until theirs is made, and the user's pages update when this is
 * done (`notifications.taskFollowedUp`). The job is queued before the task is marked DONE, so a
 * crash in between leaves it in the queue for the next worker; each part skips what is already
 * made, so a retried or duplicated job does only what is missing.
 */
export class TaskFollowUp {
  private readonly log: Logger;

  constructor(private readonly options: TaskFollowUpOptions) {
    this.log = options.log ?? silentLogger;
  }

  async run(taskId: string, signal?: AbortSignal): Promise<{ pictures: number } | undefined> {
    const { tasks, storage, searchIndexer, thumbnails, notifications } = this.options;
    const task = await tasks.findById(taskId);
    // Deleted meanwhile, or failed after all: nothing to follow up (a retry queues it again).
    if (!task || task.status === 'ERROR') return undefined;
    const started = performance.now();
    const row = await tasks.findTranscript(taskId);
    if (row) await searchIndexer.embedTask(task, signal);
    let pictures = 0;
    if (task.mediaKey && !task.framelessReason) {
      const mediaKey = task.mediaKey;
      pictures = await storage.withLocalFile(
        mediaKey,
        (file) => thumbnails.forMoments(task, file, signal),
        { signal },
      );
    }
    signal?.throwIfAborted();
    // The pages read the task again: its status now, whatever it was when the job was queued.
    const current = await tasks.findById(taskId);
    if (!current) {
      // Deleted meanwhile: the pictures made since belong to nobody.
      await storage.deletePrefix(`users/${task.userId}/tasks/${taskId}/`);
      return { pictures: 0 };
    }
    await notifications.taskFollowedUp(current);
    this.log.info(
      {
        taskId,
        userId: task.userId,
        pictures,
        embedded: Boolean(row),
        ms: Math.round(performance.now() - started),
      },
      'task follow-up done: search embeddings and moment pictures',
    );
    return { pictures };
  }
}
