import { Alert, Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { CANCEL_REASONS, validateCancelSurvey, type SurveyResult } from '@moments/domain/plans';
import { useState } from 'react';
import { cancelSubscription, sendCancelFeedback } from '../../../api/billing';
import { t } from '../../../messages/catalogue';
import { cancelReasonLabel, surveyErrorText } from '../../../messages/domain';

type Step = 'survey' | 'confirm' | 'done' | null;

/**
 * Cancelling: feedback survey (checked by its rules, modal width 446), then confirm, then the
 * success dialog. `onChanged` runs after the cancel went through (the page reloads user info).
 */
export function CancelFlow({
  step,
  setStep,
  email,
  periodEnd,
  onChanged,
}: {
  step: Step;
  setStep(step: Step): void;
  email: string;
  periodEnd: string | null;
  onChanged(): void;
}) {
  const [picked, setPicked] = useState<Record<number, string | undefined>>({});
  const [result, setResult] = useState<SurveyResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = (id: number, on: boolean) =>
    setPicked((prev) => {
      const next = { ...prev };
      if (on) next[id] = next[id] ?? '';
      else delete next[id];
      return next;
    });

  const submitSurvey = async () => {
    const answers = Object.entries(picked).map(([id, text]) => ({ id: Number(id), text }));
    const checked = validateCancelSurvey(answers);
    setResult(checked);
    if (checked.error || Object.keys(checked.reasonErrors).length) return;
    setBusy(true);
    setFailure(null);
    try {
      await sendCancelFeedback(email, checked.details);
      setStep('confirm');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : t('pages.cancel.failed'));
    } finally {
      setBusy(false);
    }
  };

  const confirmCancel = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await cancelSubscription();
      setStep('done');
      setPicked({});
      setResult(null);
      onChanged();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : t('pages.cancel.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Modal
        opened={step === 'survey'}
        onClose={() => setStep(null)}
        title={t('title.beforeYouGoWhyAreYou')}
        size={446}
      >
        <Stack gap="sm">
          {CANCEL_REASONS.map((reason) => {
            const on = picked[reason.id] !== undefined;
            return (
              <Stack key={reason.id} gap={6}>
                <Checkbox
                  label={cancelReasonLabel(reason.id)}
                  checked={on}
                  onChange={(event) => toggle(reason.id, event.currentTarget.checked)}
                />
                {on && reason.detail !== 'none' && (
                  <Textarea
                    aria-label={t('pages.cancel.details', { reason: cancelReasonLabel(reason.id) })}
                    placeholder={
                      reason.detail === 'required'
                        ? t('pages.cancel.tellMore')
                        : t('pages.cancel.tellMoreOptional')
                    }
                    autosize
                    minRows={2}
                    value={picked[reason.id] ?? ''}
                    error={surveyErrorText(result?.reasonErrors[reason.id])}
                    onChange={(event) => {
                      const text = event.currentTarget.value;
                      setPicked((prev) => ({ ...prev, [reason.id]: text }));
                    }}
                  />
                )}
              </Stack>
            );
          })}
          {result?.error && (
            <Text c="red" size="sm" role="alert">
              {surveyErrorText(result.error)}
            </Text>
          )}
          {failure && <Alert color="red">{failure}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(null)}>
              {t('pages.cancel.keepPlan')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void submitSurvey()}>
              {t('pages.cancel.continue')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={step === 'confirm'}
        onClose={() => setStep(null)}
        title={t('title.cancelYourSubscription')}
        size="sm"
      >
        <Stack>
          <Text size="sm">
            {t('pages.cancel.staysActive', { end: periodEnd ?? t('pages.cancel.periodEnd') })}
          </Text>
          {failure && <Alert color="red">{failure}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(null)}>
              {t('pages.cancel.keepPlan')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void confirmCancel()}>
              {t('pages.cancel.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={step === 'done'}
        onClose={() => setStep(null)}
        title={t('title.yourSubscriptionIsCancelled')}
        size="sm"
      >
        <Stack>
          <Text size="sm">
            {t('pages.cancel.thanks', { end: periodEnd ?? t('pages.cancel.periodEnd') })}
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => setStep(null)}>{t('pages.cancel.done')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
