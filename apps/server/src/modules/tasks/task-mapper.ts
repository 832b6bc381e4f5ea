import type { Task, TaskStage, TaskStatus, VideoMeta } from '@moments/contract';
import { VideoMeta as VideoMetaSchema } from '@moments/contract';
import type { tasks } from '../../db/schema.js';

export type TaskRow = typeof tasks.$inferSelect;

/** The spec §3 Task as the client sees it, with the result flags it reads. */
export function toTaskDto(row: TaskRow): Task {
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
    video: VideoMetaSchema.parse(row.video) as VideoMeta,
    detected_lang: row.detectedLang,
    duration_ms: row.durationMs,
    cost_credits: row.costCredits,
    created_at: row.createdAt.getTime(),
    updated_at: row.updatedAt.getTime(),
    done: status === 'DONE',
    error: status === 'ERROR',
    completed: status === 'DONE' || status === 'ERROR',
  };
}
