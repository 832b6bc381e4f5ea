import { describe, expect, it } from 'vitest';
import { describeNotification } from './describe';
import { notificationFromMessage } from './useNotifications';

describe('notification wording and targets', () => {
  it('sends task results to the video list and exports to the job or the moment', () => {
    const taskDone = describeNotification({
      type: 'TASK_STATUS_UPDATE',
      data: { task_status: 'DONE', task_title: 'Keynote' },
    });
    expect(taskDone).toMatchObject({ tone: 'success', target: 'video-tasks' });
    expect(taskDone.body).toContain('Keynote');

    const taskFailed = describeNotification({
      type: 'TASK_STATUS_UPDATE',
      data: { task_status: 'ERROR', task_title: 'Keynote', error_reason: 'The link answered 404.' },
    });
    expect(taskFailed).toMatchObject({ tone: 'failure', target: 'video-tasks' });
    expect(taskFailed.body).toContain('The link answered 404.');

    expect(
      describeNotification({
        type: 'JOB_VIRAL_MOMENT_EXPORT',
        data: { job_status: 'DONE', job_title: 'Best bit', job_id: 'j1' },
      }),
    ).toMatchObject({ title: 'Export finished', target: 'job' });
    const exportFailed = describeNotification({
      type: 'JOB_ANIMATED_CAPTION_EXPORT',
      data: { job_status: 'ERROR', job_title: 'Captions', job_id: 'j2' },
    });
    expect(exportFailed).toMatchObject({ title: 'Export failed', target: 'moment-clip' });
    expect(exportFailed.body).toContain('video “Captions”');
  });

  it('names a finished task by what it made: moments, answers to a question, captions', () => {
    const done = (task_kind: string) =>
      describeNotification({
        type: 'TASK_STATUS_UPDATE',
        data: { task_status: 'DONE', task_title: 'Keynote', task_kind },
      });
    expect(done('viral').title).toBe('Your moments are ready');
    expect(done('search').title).toBe('Your answers are ready');
    expect(done('search').body).toContain('answer your question');
    expect(done('caption').title).toBe('Your captions are ready');
    expect(new Set(['viral', 'search', 'caption'].map((kind) => done(kind).title)).size).toBe(3);
  });

  it('turns stored pushes into unread notifications and ignores live progress', () => {
    const data = {
      task_id: 't',
      task_status: 'DONE' as const,
      task_title: 'Talk',
      progress: 100,
      stage: 'finishing' as const,
      error_reason: null,
    };
    expect(notificationFromMessage({ type: 'TASK_STATUS_UPDATE', id: 'n1', data }, 5)).toEqual({
      id: 'n1',
      type: 'TASK_STATUS_UPDATE',
      viewed: false,
      data,
      created: 5,
    });
    expect(notificationFromMessage({ type: 'TASK_STATUS_UPDATE', data })).toBe(null);
    expect(notificationFromMessage({ type: 'SYNC_NOTIFY_VIEW', data: { ids: ['n1'] } })).toBe(null);
  });
});

describe('export-all notifications', () => {
  it('says how many clips of the batch are ready, once for the whole batch', () => {
    const described = describeNotification({
      type: 'JOB_BATCH_EXPORT',
      data: { job_status: 'DONE', job_title: '5 clips of Talk', done_count: 5, clip_count: 5 },
    });
    expect(described).toMatchObject({ tone: 'success', target: 'video-tasks' });
    expect(described.body).toBe('5 clips of Talk: 5 of 5 clips ready');
  });
});
