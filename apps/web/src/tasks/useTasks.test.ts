import type { Task } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { uploadRejection } from '../ingest/upload';
import { applyTaskStatus } from './useTasks';

const running: Task = {
  id: 't1',
  root_task_id: null,
  kind: 'viral',
  url_source: 'direct',
  source_lang: 'auto',
  target_lang: null,
  caption_display: 'source',
  act_as: null,
  query: null,
  status: 'IN_PROGRESS',
  stage: 'downloading',
  progress: 10,
  error_reason: null,
  warnings: [],
  video: {
    url: 'https://example.com/v.mp4',
    title: 'Talk',
    thumbnail: null,
    duration: null,
    video_platform: 'direct',
    channel_title: null,
    view_count: null,
    published_at: null,
  },
  detected_lang: null,
  duration_ms: null,
  cost_credits: 0,
  created_at: 0,
  updated_at: 0,
  done: false,
  error: false,
  completed: false,
};

describe('pushed task updates', () => {
  it('move progress and stage, and set the result flags when the task ends', () => {
    const update = { task_id: 't1', task_title: 'Talk', error_reason: null };
    const moving = applyTaskStatus(running, {
      ...update,
      task_status: 'IN_PROGRESS',
      progress: 55,
      stage: 'transcribing',
    });
    expect(moving).toMatchObject({ progress: 55, stage: 'transcribing', completed: false });
    const failed = applyTaskStatus(moving, {
      ...update,
      task_status: 'ERROR',
      progress: 55,
      stage: 'transcribing',
      error_reason: 'The file could not be read as media.',
    });
    expect(failed).toMatchObject({ error: true, done: false, completed: true });
    expect(failed.error_reason).toBe('The file could not be read as media.');
    const retried = applyTaskStatus(failed, {
      ...update,
      task_status: 'DONE',
      progress: 100,
      stage: 'finishing',
    });
    expect(retried).toMatchObject({ done: true, error: false, error_reason: null });
  });
});

describe('upload check in the browser', () => {
  it('accepts mp4, mov and webm only, and no empty files', () => {
    expect(uploadRejection({ name: 'talk.MP4', size: 10 })).toBe(null);
    expect(uploadRejection({ name: 'talk.webm', size: 10 })).toBe(null);
    expect(uploadRejection({ name: 'talk.mov', size: 10 })).toBe(null);
    expect(uploadRejection({ name: 'notes.txt', size: 10 })?.code).toBe('UNSUPPORTED_EXTENSION');
    expect(uploadRejection({ name: 'noextension', size: 10 })?.code).toBe('UNSUPPORTED_EXTENSION');
    expect(uploadRejection({ name: 'empty.mp4', size: 0 })?.code).toBe('EMPTY_FILE');
  });
});
