import type { Task, TaskStage, TaskStatus, VideoMeta } from '@moments/contract';
import { VideoMeta as VideoMetaSchema, thumbnailPath } from '@moments/contract';
import type { tasks } from '../../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;

/**
 * The task's video meta as clients see it: the thumbnail is always the picture the server stored,
 * never an address kept from the link's page.
 */
export function videoOfTask(row: Pick<TaskRow, 'id' | 'video' | 'thumbnailKey'>): VideoMeta {
  return {
    ...(VideoMetaSchema.parse(row.video) as VideoMeta),
    thumbnail: row.thumbnailKey ? thumbnailPath('task', row.id) : null,
  };
}

/** The columns a client's Task is made from (the task list selects only these). */
export const TASK_DTO_COLUMNS = [
  'id',
  'rootTaskId',
  'kind',
  'urlSource',
  'sourceLang',
  'targetLang',
  'captionDisplay',
  'actAs',
  'query',
  'clipLength',
  'status',
  'stage',
  'progress',
  'errorReason',
  'warnings',
  'video',
  'thumbnailKey',
  'detectedLang',
  'durationMs',
  'costCredits',
  'reusesTranscript',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof TaskRow)[];
export type TaskDtoRow = Pick<TaskRow, (typeof TASK_DTO_COLUMNS)[number]>;

/**
 * The task as the client sees it, with the result flags it reads. `video` is parsed
 * here: the parse fills the defaults (thumbnail, duration) of rows stored before they existed,
 * which the response check on the way out does not.
 */
export function toTaskDto(row: TaskDtoRow): Task {
  const status = row.status as TaskStatus;
  return {
    id: row.id,
    root_task_id: row.rootTaskId,
    kind: row.kind as Task['kind'],
    url_source: row.urlSource as Task['url_source'],
    source_lang: row.sourceLang,
    target_lang: row.targetLang,
    caption_display: row.captionDisplay as Task['caption_display'],
    act_as: row.actAs,
    query: row.query,
    clip_length: row.clipLength as Task['clip_length'],
    status,
    stage: row.stage as TaskStage,
    progress: Math.round(row.progress * 10) / 10,
    error_reason: row.errorReason,
    warnings: row.warnings as string[],
    video: videoOfTask(row),
    detected_lang: row.detectedLang,
    duration_ms: row.durationMs,
    cost_credits: row.costCredits,
    reuses_transcript: row.reusesTranscript,
    created_at: row.createdAt.getTime(),
    updated_at: row.updatedAt.getTime(),
    done: status === 'DONE',
    error: status === 'ERROR',
    completed: status === 'DONE' || status === 'ERROR',
  };
}
