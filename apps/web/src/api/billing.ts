import type { CreditHistory, Invoice } from '@moments/contract';
import type { PricingItem } from '@moments/domain/plans';
import { api } from './client';

/** The subscription and account calls. */

export interface PricingTableReply {
  pricing: PricingItem[];
  credit_packs: Array<{ price: string; credits: number; unit_amount: number }>;
  provider: string;
}

export const fetchPricingTable = () =>
  api.get<PricingTableReply>('/api/subscription/pricing_table');

/** Resolves with the checkout URL the browser goes to. */
export const createSubscription = (plan: string, referral?: string | null) =>
  api.post<string>(
    '/api/subscription/create',
    { plan, referral: referral ?? undefined },
    { idempotent: true },
  );

export const previewInvoice = (plan: string) =>
  api.post<{ amount: number; currency: string }>('/api/subscription/preview_invoice', { plan });

// The plan page shows these failures itself (a failed resubscribe re-applies the cancel).
export const resubscribe = (plan: string) =>
  api.post<null>(
    '/api/subscription/resubscribe',
    { plan },
    { suppressErrorDialog: true, idempotent: true },
  );
export const cancelSubscription = () => api.post<null>('/api/subscription/cancel');
export const stopCancel = () => api.post<null>('/api/subscription/stop_cancel');

export const fetchInvoices = () => api.get<Invoice[]>('/api/payment/invoice');

export const buyCredits = (price: string, quantity: number) =>
  api.post<string>('/api/payment', { price, quantity }, { idempotent: true });

export const openPortalSession = () => api.post<{ url: string }>('/api/user/portal-session');

export const sendCancelFeedback = (email: string, details: string[]) =>
  api.post<null>('/api/user/suggestion_feedback', { type: 'SUBSCRIPTION_CANCEL', email, details });

export interface EnterpriseFormValues {
  first_name: string;
  last_name: string;
  business_email: string;
  company_name: string;
  company_size: string;
  company_social_channel: string;
  message: string;
}

/** Message display suppressed; the form shows its own failure message. */
export const sendContactUs = (form: EnterpriseFormValues) =>
  api.post<null>('/api/contact-us', form, { suppressErrorDialog: true });

/** Credit history: every movement of the ledger, newest first, and the buckets. */
export const fetchCreditHistory = (pageNum: number, pageSize = 20) =>
  api.get<CreditHistory>('/api/credit/history', {
    query: { page_num: pageNum, page_size: pageSize },
  });
