import type { UserInfo } from '@moments/contract';
import { PLAN_PROTOCOL_TIPS, type PricingItem } from '@moments/domain/plans';
import { useState } from 'react';
import { describePlan, planChangeKind } from '../../../account/plan';
import {
  cancelSubscription,
  createSubscription,
  previewInvoice,
  resubscribe,
  stopCancel,
} from '../../../api/billing';
import { isApiError } from '../../../api/client';
import { t } from '../../../messages/catalogue';
import type { Pending } from './ConfirmPlanBody';

/** An invite code passed along from /invite/landing, if the invites feature stored one. */
function readReferral(): string | undefined {
  try {
    return window.localStorage.getItem('moments.referral') ?? undefined;
  } catch {
    // Storage blocked (private mode): no referral to pass on.
    return undefined;
  }
}

/**
 * Choosing a plan: checkout for a free user, a priced change (previewed first) for a paying one,
 * both behind the terms checkbox. `onChanged` runs after a change went through (or failed, so the
 * page reloads what the server now says).
 */
export function usePlanChange(
  subscription: UserInfo['subscription'] | null,
  callbacks: { onDone(message: string): void; onSettled(): void },
) {
  const currentPlan = subscription?.current_plan ?? 'free';
  const [pending, setPending] = useState<Pending | null>(null);
  const [agreed, setAgreedState] = useState(false);
  const [agreementError, setAgreementError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (item: PricingItem) => {
    setError(null);
    setAgreementError(null);
    setAgreedState(false);
    const kind = planChangeKind(currentPlan);
    if (kind === 'checkout') {
      setPending({ item, kind, amount: item.unit_amount });
      return;
    }
    setPending({ item, kind, amount: null });
    try {
      const preview = await previewInvoice(item.plan);
      setPending({ item, kind, amount: preview.amount });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : t('pages.plan.couldNotPrice'));
    }
  };

  const confirm = async () => {
    if (!pending) return;
    if (!agreed) {
      setAgreementError(t(PLAN_PROTOCOL_TIPS));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (pending.kind === 'checkout') {
        const url = await createSubscription(pending.item.plan, readReferral());
        window.location.assign(url);
        return;
      }
      // With a cancellation pending, stop it first; if resubscribing fails, cancel again.
      const wasCancelling = subscription?.cancel_at_period_end === true;
      if (wasCancelling) await stopCancel();
      try {
        if (pending.item.plan !== currentPlan || !wasCancelling)
          await resubscribe(pending.item.plan);
      } catch (caught) {
        // Best effort: put the cancellation back; the reload shows what the server has.
        if (wasCancelling) await cancelSubscription().catch(() => undefined);
        throw caught;
      }
      setPending(null);
      callbacks.onDone(t('pages.plan.nowOn', { plan: describePlan(pending.item.plan) }));
      callbacks.onSettled();
    } catch (caught) {
      setError(
        isApiError(caught) || caught instanceof Error
          ? caught.message
          : t('pages.plan.changeFailed'),
      );
      callbacks.onSettled();
    } finally {
      setBusy(false);
    }
  };

  const setAgreed = (value: boolean) => {
    setAgreedState(value);
    if (value) setAgreementError(null);
  };

  return {
    pending,
    close: () => setPending(null),
    agreed,
    setAgreed,
    agreementError,
    error,
    clearError: () => setError(null),
    busy,
    choose,
    confirm,
  };
}
