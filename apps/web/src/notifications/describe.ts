import type { Notification } from '@moments/contract';

export type NotificationTone = 'success' | 'failure' | 'info';

export interface NotificationText {
  title: string;
  body: string;
  tone: NotificationTone;
  /** What opening it leads to (spec §4). */
  target: 'video-tasks' | 'job' | 'moment-clip' | 'none';
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() ? value : fallback;

/** The words a notification is shown with, in the list and in its dialog (spec §4, §8). */
export function describeNotification(
  notification: Pick<Notification, 'type' | 'data'>,
): NotificationText {
  const data = notification.data;
  switch (notification.type) {
    case 'TASK_STATUS_UPDATE': {
      const title = text(data.task_title, 'Your video');
      if (data.task_status === 'ERROR') {
        const reason = text(data.error_reason, '');
        return {
          title: 'Video processing failed',
          body: `“${title}” could not be processed.${reason ? ` ${reason}` : ''}`,
          tone: 'failure',
          target: 'video-tasks',
        };
      }
      return {
        title: 'Your video is ready',
        body: `“${title}” has finished processing.`,
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
      const title = text(data.job_title, `Your ${what}`);
      if (data.job_status === 'ERROR') {
        return {
          title: 'Export failed',
          body: `The export of the ${what} “${title}” failed. Open the ${what} to try again.`,
          tone: 'failure',
          target: 'moment-clip',
        };
      }
      return {
        title: 'Export finished',
        body: `“${title}” is ready to watch and download.`,
        tone: 'success',
        target: 'job',
      };
    }
    default:
      return { title: 'Notification', body: '', tone: 'info', target: 'none' };
  }
}
