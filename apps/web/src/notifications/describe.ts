import type { Notification } from '@moments/contract';
import { t } from '../messages/catalogue';

export type NotificationTone = 'success' | 'failure' | 'info';

export interface NotificationText {
  title: string;
  body: string;
  tone: NotificationTone;
  /** What opening it leads to. */
  target: 'video-tasks' | 'job' | 'moment-clip' | 'none';
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() ? value : fallback;

/** The words a notification is shown with, in the list and in its dialog. */
export function describeNotification(
  notification: Pick<Notification, 'type' | 'data'>,
): NotificationText {
  const data = notification.data;
  switch (notification.type) {
    case 'TASK_STATUS_UPDATE': {
      const title = text(data.task_title, t('notifications.task.untitled'));
      if (data.task_status === 'ERROR') {
        const reason = text(data.error_reason, '');
        return {
          title: t('notifications.task.failed'),
          body: reason
            ? t('notifications.task.failedBodyWithReason', { title, reason })
            : t('notifications.task.failedBody', { title }),
          tone: 'failure',
          target: 'video-tasks',
        };
      }
      // Named by what the task made: a question task's result is answers, not "your video".
      const kind = data.task_kind;
      if (kind === 'viral' || kind === 'search' || kind === 'caption') {
        return {
          title: t(`notifications.task.ready.${kind}`),
          body: t(`notifications.task.readyBody.${kind}`, { title }),
          tone: 'success',
          target: 'video-tasks',
        };
      }
      return {
        title: t('notifications.task.ready'),
        body: t('notifications.task.readyBody', { title }),
        tone: 'success',
        target: 'video-tasks',
      };
    }
    case 'JOB_VIRAL_MOMENT_EXPORT':
    case 'JOB_ANIMATED_CAPTION_EXPORT':
    case 'MOMENT_EXPORT':
    case 'VIDEO_EXPORT': {
      const what =
        notification.type === 'JOB_ANIMATED_CAPTION_EXPORT' || notification.type === 'VIDEO_EXPORT'
          ? 'video'
          : 'moment';
      const title = text(data.job_title, t(`notifications.export.untitled.${what}`));
      if (data.job_status === 'ERROR') {
        return {
          title: t('notifications.export.failed'),
          body: t(`notifications.export.failedBody.${what}`, { title }),
          tone: 'failure',
          target: 'moment-clip',
        };
      }
      return {
        title: t('notifications.export.finished'),
        body: t('notifications.export.finishedBody', { title }),
        tone: 'success',
        target: 'job',
      };
    }
    case 'JOB_BATCH_EXPORT': {
      const title = text(data.job_title, t('batch.title'));
      const done = Number(data.done_count ?? 0);
      const count = Number(data.clip_count ?? 0);
      return {
        title:
          data.job_status === 'ERROR'
            ? t('batch.notification.failed')
            : t('batch.notification.finished'),
        body: t('batch.notification.done', { title, done, count }),
        tone: data.job_status === 'ERROR' ? 'failure' : 'success',
        target: 'video-tasks',
      };
    }
    default:
      return { title: t('notifications.other'), body: '', tone: 'info', target: 'none' };
  }
}
