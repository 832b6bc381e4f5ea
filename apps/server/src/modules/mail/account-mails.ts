import type { Mailer } from '../../mail/index.js';
import type { UserPresence } from '../../realtime/index.js';
import type { UsersRepository } from '../../repositories/users.repository.js';

const FINISHED = new Set(['DONE', 'ERROR']);

/**
 * The mails the product sends on its own: welcome at sign-up, finished tasks and exports (only
 * when no browser of the user is connected, since a connected one already shows the
 * notification), and invite rewards. All go through the user mailer, so unsubscribes apply.
 */
export class AccountMails {
  constructor(
    private readonly mailer: Mailer,
    private readonly users: UsersRepository,
    private readonly presence: UserPresence,
    private readonly publicUrl: string,
    private readonly log?: (line: string, error?: unknown) => void,
  ) {}

  async welcome(userId: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) return;
    await this.mailer.send({
      to: user.email,
      userId,
      category: 'account',
      subject: 'Welcome to Moments',
      text:
        `Hi ${user.username},\n\nwelcome to Moments. Paste a video link or upload a video on ` +
        `${this.link('/home')} and Moments finds its best moments, ready to clip and share.\n`,
    });
  }

  /** Called for every stored notification; mails the finished task and export ones. */
  async notificationStored(
    userId: string,
    type: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    const isTask = type === 'TASK_STATUS_UPDATE';
    const isExport = type.startsWith('JOB_');
    const status = String((isTask ? data.task_status : data.job_status) ?? '');
    if ((!isTask && !isExport) || !FINISHED.has(status)) return;
    if (this.presence.isConnected(userId)) return;
    const user = await this.users.findById(userId);
    if (!user) return;
    const failed = status === 'ERROR';
    const title = String((isTask ? data.task_title : data.job_title) ?? 'your video');
    if (isTask) {
      const reason = data.error_reason ? ` Reason: ${String(data.error_reason)}.` : '';
      await this.mailer.send({
        to: user.email,
        userId,
        category: 'task',
        subject: failed ? `Processing failed: ${title}` : `Your moments are ready: ${title}`,
        text: failed
          ? `Moments could not process "${title}".${reason} No credits were used. See ${this.link('/library/videoTasks')}\n`
          : `"${title}" is processed. Open its moments: ${this.link(`/video/${String(data.task_id)}/moments`)}\n`,
      });
      return;
    }
    await this.mailer.send({
      to: user.email,
      userId,
      category: 'export',
      subject: failed ? `Export failed: ${title}` : `Your export is ready: ${title}`,
      text: failed
        ? `The export of "${title}" failed. No credits were used. Try again from ${this.link(`/moment/${String(data.moment_id)}/clip`)}\n`
        : `The export of "${title}" is ready: ${this.link(`/job/${String(data.job_id)}`)}\n`,
    });
  }

  async referralRewarded(referrerId: string, friendName: string, credits: number): Promise<void> {
    const user = await this.users.findById(referrerId);
    if (!user) return;
    await this.mailer.send({
      to: user.email,
      userId: referrerId,
      category: 'referral',
      subject: `You earned ${credits} credits`,
      text: `${friendName} took a paid plan after your invite: ${credits} credits were added to your account. Invite more friends: ${this.link('/invite')}\n`,
    });
  }

  /** Mail is a side effect: a failing mail server must not fail the work that triggered it. */
  async safely(what: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      this.log?.(`mail "${what}" failed`, error);
    }
  }

  private link(pathname: string): string {
    return new URL(pathname, this.publicUrl).toString();
  }
}
