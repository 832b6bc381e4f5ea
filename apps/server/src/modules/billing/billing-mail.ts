import { formatDollars } from '@moments/domain';
import type { Mailer } from '../mail/index.js';
import { receiptMail } from '../mail/templates/mails.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { BillingRepository } from './billing.repository.js';
import { planLabel } from './plan-label.js';

/** Mail that billing sends: receipts to the user (category `billing`). Failures are logged. */
export class BillingMail {
  constructor(
    private readonly repo: BillingRepository,
    private readonly mailer: Mailer,
    private readonly log: Logger = silentLogger,
    /** PUBLIC_URL: the receipt links to the plan page with an absolute address. */
    private readonly publicUrl = 'http://127.0.0.1:8080',
  ) {}

  async receipt(userId: string, amount: number, paymentMethod = 'card') {
    const user = await this.repo.user(userId);
    if (!user) return;
    const mail = receiptMail({
      amount: formatDollars(amount),
      paymentMethod,
      planLabel: planLabel(user.currentPlan),
      planUrl: new URL('/settings/plan', this.publicUrl).toString(),
    });
    await this.mailer
      .send({
        to: user.email,
        subject: mail.subject,
        text: '',
        body: mail.body,
        category: 'billing',
        userId,
      })
      .catch((error: unknown) => this.log.error({ err: error, userId }, 'receipt mail failed'));
  }
}
