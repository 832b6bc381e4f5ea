import { ERROR_CODES, type Invoice } from '@moments/contract';
import {
  CREDIT_PACKS,
  pricingTable,
  validateCancelDetails,
  validateEnterpriseForm,
  type EnterpriseForm,
} from '@moments/domain';
import { AppError, notFound } from '../../http/errors.js';
import type { Mailer } from '../mail/index.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { BillingRepository } from './billing.repository.js';
import type { PaymentProvider } from './providers/payment-provider.js';
import { toProvider } from './subscriptions/plan-changes.service.js';

/** The read side of billing and its forms: pricing, invoices, the portal, survey, enterprise. */
export class BillingAccountService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly provider: PaymentProvider,
    private readonly mailer: Mailer,
    private readonly options: { operatorEmail?: string; log?: Logger } = {},
  ) {}

  private get log() {
    return this.options.log ?? silentLogger;
  }

  pricing() {
    return {
      pricing: pricingTable(),
      credit_packs: CREDIT_PACKS.map((pack) => ({
        price: pack.price,
        credits: pack.credits,
        unit_amount: pack.unitAmount,
      })),
      provider: this.provider.name,
    };
  }

  private async requireUser(userId: string) {
    const user = await this.repo.user(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    return user;
  }

  /** payment/invoice: the user's invoices. */
  async invoices(userId: string, origin: string): Promise<Invoice[]> {
    const rows = await this.repo.invoices(userId);
    return rows.map((row) => ({
      id: row.id,
      timestamp: Math.floor(row.createdAt.getTime() / 1000),
      payment_method: row.paymentMethod,
      link: row.hostedUrl ?? `${origin}/billing/invoice/${row.id}`,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
    }));
  }

  async invoice(userId: string, id: string) {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.invoice(userId, id) : undefined;
    if (!row) throw notFound('Invoice');
    const user = await this.requireUser(userId);
    return { row, user };
  }

  async portalUrl(userId: string, returnUrl: string) {
    const user = await this.requireUser(userId);
    const subscription = await this.repo.subscription(userId);
    return this.provider.portalUrl(subscription ? toProvider(subscription, user) : null, returnUrl);
  }

  async subscriptionSummary(userId: string) {
    const user = await this.requireUser(userId);
    const subscription = await this.repo.subscription(userId);
    return { user, subscription: subscription?.status === 'active' ? subscription : null };
  }

  /** suggestion_feedback: the cancel survey, checked by its rules. */
  async cancelFeedback(userId: string, body: { type: string; email: string; details: string[] }) {
    const problem = validateCancelDetails(body.details);
    if (problem) throw new AppError(ERROR_CODES.INVALID_INPUT, 422, problem);
    await this.repo.insertFeedback({
      userId,
      type: body.type,
      email: body.email,
      details: body.details,
    });
  }

  /** contact-us: the enterprise form, validated, stored and mailed to the operator. */
  async contactUs(userId: string | null, form: EnterpriseForm) {
    const errors = validateEnterpriseForm(form);
    const first = Object.entries(errors)[0];
    if (first) {
      throw new AppError(ERROR_CODES.INVALID_INPUT, 422, `${first[0]}: ${first[1]}`, errors);
    }
    const clean = Object.fromEntries(
      Object.entries(form).map(([key, value]) => [key, String(value).trim()]),
    ) as unknown as EnterpriseForm;
    await this.repo.insertContact(userId, { ...clean });
    // Stored first, so a mail failure loses nothing: it is logged, and the operator can query.
    await this.mailer
      .send({
        to: this.options.operatorEmail ?? 'operator@localhost',
        subject: `Enterprise enquiry from ${clean.company_name} (${clean.company_size})`,
        text: [
          `${clean.first_name} ${clean.last_name} <${clean.business_email}>`,
          `Company: ${clean.company_name}, ${clean.company_size} people`,
          `Social channel: ${clean.company_social_channel}`,
          '',
          clean.message,
        ].join('\n'),
        category: 'operator',
      })
      .catch((error: unknown) =>
        this.log.error({ err: error, userId }, 'enterprise contact mail failed'),
      );
  }
}
