import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@moments/contract';
import { tierOfPlan } from '@moments/domain/plans';
import type { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Logger } from '../../logging.js';
import type { Storage } from '../../storage/index.js';
import type { ExportsService } from '../exports/exports.service.js';
import type { Mailer } from '../mail/mailer.js';
import { emailChangeMail } from '../mail/templates/mails.js';
import type { TasksService } from '../tasks/tasks.service.js';
import { hashPassword, hashToken, type AuthService } from './auth.service.js';
import type { UsersRepository } from './users.repository.js';

/** How long a mailed email-change link works. */
const EMAIL_CHANGE_TTL_HOURS = 24;

export interface AccountServiceDeps {
  users: UsersRepository;
  auth: AuthService;
  /** A deleted account's API tokens are revoked with its sessions (a password change keeps them). */
  apiTokens: Pick<ApiTokensService, 'revokeAll'>;
  /**
   * The link goes to an address not yet the account's, so it is sent without a user id: no
   * unsubscribe applies to it (through the queue when SMTP is set).
   */
  mailer: Mailer;
  publicUrl: string;
  storage: Storage;
  tasks: Pick<TasksService, 'delete'>;
  exports: Pick<ExportsService, 'delete'>;
  log: Logger;
  now?: () => Date;
}

/**
 * What a signed-in user changes about the account itself: its password, its email (confirmed
 * by a link mailed to the new address) and its deletion.
 */
export class AccountService {
  private readonly now: () => Date;

  constructor(private readonly deps: AccountServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  changePassword(
    userId: string,
    sessionToken: string,
    body: { current_password: string; new_password: string },
  ): Promise<void> {
    return this.deps.auth.changePassword(userId, sessionToken, body);
  }

  /** Mails a single-use link to the new address; the email changes when it is opened. */
  async requestEmailChange(userId: string, body: { password: string; email: string }) {
    const user = await this.deps.auth.assertPassword(userId, body.password);
    const email = body.email;
    if (email === user.email) {
      throw new AppError(ERROR_CODES.INVALID_INPUT, 422, 'This is already your email address.');
    }
    if (await this.deps.users.findByEmail(email)) {
      throw new AppError(ERROR_CODES.EMAIL_TAKEN, 409, 'An account with this email already exists');
    }
    const token = randomBytes(32).toString('base64url');
    await this.deps.users.createEmailChange({
      tokenHash: hashToken(token),
      userId,
      newEmail: email,
      expiresAt: new Date(this.now().getTime() + EMAIL_CHANGE_TTL_HOURS * 3600_000),
    });
    const confirmUrl = new URL('/settings/email/confirm', this.deps.publicUrl);
    confirmUrl.searchParams.set('token', token);
    const mail = emailChangeMail({
      username: user.username,
      confirmUrl: confirmUrl.toString(),
      validHours: EMAIL_CHANGE_TTL_HOURS,
    });
    await this.deps.mailer.send({
      to: email,
      category: 'account',
      subject: mail.subject,
      text: '',
      body: mail.body,
    });
    return { email };
  }

  /** Opens a mailed link: 404 unknown, 410 used or expired, 409 when the address was taken since. */
  async confirmEmailChange(token: string): Promise<{ email: string }> {
    const tokenHash = hashToken(token);
    const change = await this.deps.users.findEmailChange(tokenHash);
    if (!change) throw notFound('Email confirmation link');
    if (change.usedAt) {
      throw new AppError(ERROR_CODES.EMAIL_LINK_USED, 410, 'This link was used already.');
    }
    const now = this.now();
    if (change.expiresAt <= now) {
      throw new AppError(
        ERROR_CODES.EMAIL_LINK_EXPIRED,
        410,
        'This link has expired. Ask for a new one in your settings.',
      );
    }
    const holder = await this.deps.users.findByEmail(change.newEmail);
    if (holder && holder.id !== change.userId) {
      throw new AppError(ERROR_CODES.EMAIL_TAKEN, 409, 'An account with this email already exists');
    }
    if (!(await this.deps.users.applyEmailChange(tokenHash, change.userId, change.newEmail, now))) {
      throw new AppError(ERROR_CODES.EMAIL_LINK_USED, 410, 'This link was used already.');
    }
    return { email: change.newEmail };
  }

  /**
   * Deletes the account for good: its tasks and exports (their files and links), uploads and
   * everything it wrote, in the database and in storage (local or S3); its sessions end. What
   * accounting keeps (credit ledger, invoices, checkouts, plan changes) stays, pointing at an
   * anonymous row with no email, name or usable password. A subscription that still renews
   * is refused (409 SUBSCRIPTION_ACTIVE): it is cancelled first, so nothing bills a deleted account.
   */
  async deleteAccount(userId: string, password: string): Promise<void> {
    const user = await this.deps.auth.assertPassword(userId, password);
    if (tierOfPlan(user.currentPlan) !== 'FREE' && !user.cancelAtPeriodEnd) {
      throw new AppError(
        ERROR_CODES.SUBSCRIPTION_ACTIVE,
        409,
        'Your subscription still renews. Cancel it on the plan page first, then delete the account.',
      );
    }
    const { storage } = this.deps;
    // Each through its service: runs stop, unfinished work is refunded, files and links go.
    for (const id of await this.deps.users.taskIdsOf(userId)) {
      await this.deps.tasks.delete(userId, id);
    }
    // A task's deletion took its exports with it; what is left is deleted on its own.
    for (const id of await this.deps.users.exportIdsOf(userId)) {
      await this.deps.exports.delete(userId, id);
    }
    await this.deps.users.deletePersonalRows(userId);
    // Everything stored under the user's folder: uploads, sources, pictures, exports, previews.
    await storage.deletePrefix(`users/${userId}/`);
    // A password nobody knows: the row stays for the ledger, and nothing can log in to it.
    const unusable = await hashPassword(randomBytes(32).toString('base64url'));
    await this.deps.users.anonymise(userId, unusable, this.now());
    await this.deps.auth.revokeCredentials(userId);
    await this.deps.apiTokens.revokeAll(userId);
    this.deps.log.info({ userId }, 'account deleted');
  }
}
