import type { AppConfig } from '../../config/index.js';
import type { JobQueue } from '../../queue/queue.js';
import type { MomentsService } from '../moments/moments.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { SearchIndexer } from '../search/index.js';
import type { SummariesService } from '../summaries/summaries.service.js';
import type { ThumbnailsService } from '../thumbnails/thumbnails.service.js';
import type { TaskPartial } from '@moments/contract';
import type { TranscriptGrowth } from './chunked-transcription.js';
import type { TaskRow } from './task-mapper.js';
import type { TaskHooks } from './task-runner.js';

/** What the pipeline's later stages hand their work to. */
export interface TaskPipelineDeps {
  config: Pick<AppConfig, 'FRAMING_PREPARE_MOMENTS'>;
  queue: JobQueue;
  notifications: NotificationsService;
  moments: MomentsService;
  searchIndexer: SearchIndexer;
  summaries: SummariesService;
  thumbnails: ThumbnailsService;
}

/**
 * The task pipeline, top to bottom. A task is one `task-run` job (queue/job-kinds.ts);
 * its TaskRunner runs the stages in order, each with its own timeout and progress band, and
 * hands the stages' results to the steps declared here:
 *
 *  1. downloading   the link through yt-dlp or the stored upload (StorageMediaFetcher)
 *  2. probing       the media's facts (ffprobe) and its real length, measured from its packets,
 *                   which the task is charged by (an upload's, measured when it arrived, are
 *                   read from media_analyses); the video's thumbnail (`thumbnails.video`) is
 *                   made beside the transcription
 *  3. transcribing  long audio in `asr-chunk` jobs any worker takes (ChunkedTranscription); each
 *                   chunk in order grows the transcript and the provisional moments (`transcriptGrew`)
 *  4. analysing     the moments (`analyse`), then the words of the home search's index (`index`)
 *  5. summary       the summary, charged with the task and refunded when none is made (`summarise`)
 *  6. DONE          the moments are ready once ranked: the `task-follow-up` job is queued just
 *                   before (`followUp`), and makes each moment's picture and the search's
 *                   embeddings once DONE, then tells the user's pages (TaskFollowUp); the user is
 *                   told (`onTaskChanged`), and the best moments' framing is analysed in the
 *                   background (`framing-prepare` job), so their exports only render
 *
 * A run whose worker died is resumed by the `task-reap` job; every status change along the way
 * reaches the user through `onTaskChanged`.
 */
export function taskPipeline(deps: TaskPipelineDeps): TaskHooks {
  const { config, queue, notifications, moments, searchIndexer, summaries, thumbnails } = deps;
  const partial = async (task: TaskRow, growth: TranscriptGrowth): Promise<TaskPartial> => ({
    transcribed_ms: growth.transcribedMs,
    chunks_done: growth.chunksDone,
    chunk_count: growth.chunkCount,
    added: growth.added.map((segment) => ({
      start_ms: segment.startMs,
      end_ms: segment.endMs,
      text: segment.text,
    })),
    moments: await moments.provisional(task, growth.transcript),
  });
  return {
    // 2. probing
    thumbnails: {
      video: (task, file, facts, signal) => thumbnails.forTask(task, file, facts, signal),
    },
    // 3. transcribing: provisional moments for the task page while the rest is transcribed.
    partial,
    transcriptGrew: async (task, growth) =>
      notifications.taskGrew(task, await partial(task, growth)),
    // 4. analysing: the moments found, then the words of the task's passages go into the index.
    analyse: (task, transcript, signal) => moments.analyse(task, transcript, signal),
    index: (task, transcript, signal) =>
      searchIndexer.indexWords(task, transcript.segments, signal),
    // 6. queued before DONE is saved (durable), started once it is (workers in this process now).
    followUp: async (task) => {
      await queue.send('task-follow-up', { taskId: task.id }, { wake: false });
      return { started: () => queue.wake('task-follow-up') };
    },
    // 5. summary
    summarise: (task, transcript, signal) => summaries.summariseTask(task, transcript, signal),
    // Every status change; 6. once DONE, the background framing.
    onTaskChanged: async (task, change) => {
      await notifications.taskChanged(task, change.statusChanged);
      if (change.statusChanged && task.status === 'DONE' && config.FRAMING_PREPARE_MOMENTS > 0) {
        await queue.send('framing-prepare', { taskId: task.id });
      }
    },
  };
}
