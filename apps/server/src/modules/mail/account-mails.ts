import { taskResultNoun, taskResultPath } from '@moments/domain/tasks';
import type { MailCategory, Mailer } from './mailer.js';
import {
  exportMail,
  referralMail,
  taskMail,
  welcomeMail,
  type MailTemplate,
} from './templates/mails.js';
import type { UserPresence } from '../../realtime/index.js';
import type { PictureTokens } from '../thumbnails/picture-tokens.js';
import type { UsersRepository } from '../auth/users.repository.js';

const FINISHED = new Set(['DONE', 'ERROR']);

export interface AccountMailsOptions {
  mailer: Mailer;
  users: UsersRepository;
  presence: UserPresence;
  publicUrl: string;
  log?: (line: string, error?: unknown) => void;
  pictureTokens?: PictureTokens;
}

/**
 * The mails the product sends on its own: welcome at sign-up, finished tasks and exports (only
 * when no browser of the user is connected, since a connected one already shows the
 * notification), and invite rewards. All go through the user mailer, so unsubscribes apply.
 */
export class AccountMails {
  private readonly deps: AccountMailsOptions;

  constructor(options: AccountMailsOptions) {
    this.deps = options;
  }

  async welcome(userId: string): Promise<void> {
    const user = await this.deps.users.findById(userId);
    if (!user) return;
    await this.sendTemplate(
      user,
      'account',
      welcomeMail({ username: user.username, homeUrl: this.link('/home') }),
    );
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
    if (await this.deps.presence.isWatching(userId)) return;
    const user = await this.deps.users.findById(userId);
    if (!user) return;
    const failed = status === 'ERROR';
    const title = String((isTask ? data.task_title : data.job_title) ?? 'your video');
    if (isTask) {
      // Named by what the task makes, leading to the page that shows it.
      const task = { id: String(data.task_id), kind: String(data.task_kind ?? 'viral') };
      const mail = taskMail({
        title,
        made: taskResultNoun(task.kind),
        url: this.link(failed ? '/library/videoTasks' : taskResultPath(task)),
        failed,
        reason: data.error_reason ? String(data.error_reason) : undefined,
        picture: this.picture(data.thumbnail, title),
      });
      await this.sendTemplate(user, 'task', mail);
      return;
    }
    const url = failed
      ? data.moment_id
        ? this.link(`/moment/${String(data.moment_id)}/clip`)
        : this.link('/library/videoTasks')
      : this.link(`/job/${String(data.job_id)}`);
    const picture = this.picture(data.thumbnail, title);
    await this.sendTemplate(user, 'export', exportMail({ title, url, failed, picture }));
  }

  async referralRewarded(referrerId: string, friendName: string, credits: number): Promise<void> {
    const user = await this.deps.users.findById(referrerId);
    if (!user) return;
    await this.sendTemplate(
      user,
      'referral',
      referralMail({ friendName, credits, inviteUrl: this.link('/invite') }),
    );
  }

  private async sendTemplate(
    user: { id: string; email: string },
    category: MailCategory,
    mail: MailTemplate,
  ): Promise<void> {
    await this.deps.mailer.send({
      to: user.email,
      userId: user.id,
      category,
      subject: mail.subject,
      text: '',
      body: mail.body,
    });
  }

  /** Mail is a side effect: a failing mail server must not fail the work that triggered it. */
  async safely(what: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      this.deps.log?.(`mail "${what}" failed`, error);
    }
  }

  /**
   * The notification's thumbnail (`/api/thumbnail/{kind}/{id}`) as an absolute address with a
   * signed, expiring token: a mail client has no session.
   */
  private picture(thumbnail: unknown, title: string) {
    const match = /^\/api\/thumbnail\/(task|moment|job)\/([0-9a-f-]{36})$/.exec(String(thumbnail));
    if (!match || !this.deps.pictureTokens) return undefined;
    const [pathname, kind, id] = match as unknown as [string, string, string];
    const sig = this.deps.pictureTokens.sign(kind, id);
    return { src: this.link(`${pathname}?sig=${encodeURIComponent(sig)}`), alt: title };
  }

  private link(pathname: string): string {
    return new URL(pathname, this.deps.publicUrl).toString();
  }
}
