import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconBolt, IconMail, IconWifiOff } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ERROR_CODES } from '@moments/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { USER_INFO_QUERY_KEY, useSession } from '../account/session';
import { setApiErrorHandler, type NetworkFailureDecision } from '../api/client';
import { supportContactUrl } from '../config';
import { t } from '../messages/catalogue';
import { NotYearlyPlanModal } from '../popups/NotYearlyPlanModal';
import {
  errorDialogFor,
  limitDialogWording,
  type ErrorDialog,
  type LimitAudience,
  type LimitCause,
} from './catalogue';

type CatalogueDialog = Exclude<ErrorDialog, { kind: 'network-disconnected' }>;

/** A request the network lost, waiting in the Network Disconnected dialog. */
interface WaitingRequest {
  resolve(decision: NetworkFailureDecision): void;
  readOnly: boolean;
}

/**
 * The global error handler: installs itself into the API client and shows the catalogue's dialogs.
 * Network failures wait here: Retry re-sends every request that failed, closing gives up on them.
 */
export function ErrorDialogs() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const currentPlan = user?.subscription.current_plan ?? null;
  const planRef = useRef(currentPlan);
  useEffect(() => {
    planRef.current = currentPlan;
  }, [currentPlan]);

  const [dialog, setDialog] = useState<CatalogueDialog | null>(null);
  const [waitingRequests, setWaitingRequests] = useState<WaitingRequest[]>([]);

  useEffect(
    () =>
      setApiErrorHandler({
        onError(error) {
          // A session that expired elsewhere: re-read the user so login routes redirect to /login.
          if (error.code === ERROR_CODES.UNAUTHORIZED && error.path !== '/api/user/info') {
            void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
          }
          const next = errorDialogFor(error, planRef.current);
          if (next && next.kind !== 'network-disconnected') setDialog(next);
        },
        onNetworkFailure(_error, { readOnly }) {
          return new Promise<NetworkFailureDecision>((resolve) =>
            setWaitingRequests((waiting) => [...waiting, { resolve, readOnly }]),
          );
        },
      }),
    [queryClient],
  );

  // A browser that goes offline gets the dialog at once, not a spinner that never ends.
  const [offline, setOffline] = useState(() => !navigator.onLine);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    // Back online: what was only being read (the page's own refreshes, which a browser going
    // offline catches mid-flight) is sent again at once; a change the user asked for still waits
    // for their Retry, since it may have reached the server before the line dropped.
    const online = () => {
      update();
      setWaitingRequests((waiting) => {
        for (const request of waiting) if (request.readOnly) request.resolve('retry');
        return waiting.filter((request) => !request.readOnly);
      });
    };
    window.addEventListener('offline', update);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', update);
      window.removeEventListener('online', online);
    };
  }, []);

  const settleNetwork = (decision: NetworkFailureDecision) => {
    // Still offline: retrying cannot work yet, so the dialog stays.
    if (decision === 'retry' && !navigator.onLine) return;
    if (decision === 'give-up') setOffline(false);
    setWaitingRequests((waiting) => {
      for (const request of waiting) request.resolve(decision);
      return [];
    });
  };
  const close = () => setDialog(null);
  const go = (to: string) => {
    close();
    void navigate(to);
  };

  return (
    <>
      <Modal
        opened={waitingRequests.length > 0 || offline}
        onClose={() => settleNetwork('give-up')}
        title={
          <DialogTitle
            icon={<IconWifiOff size={18} />}
            color="orange"
            text={t('errors.network.title')}
          />
        }
        size="sm"
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('errors.network.text')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => settleNetwork('give-up')}>
              {t('common.close')}
            </Button>
            <Button onClick={() => settleNetwork('retry')}>{t('errors.network.retry')}</Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={dialog?.kind === 'usage-limit'}
        onClose={close}
        size="sm"
        title={
          <DialogTitle
            icon={<IconBolt size={18} />}
            color="violet"
            text={
              dialog?.kind === 'usage-limit'
                ? limitDialogWording(dialog.cause, dialog.audience).title
                : t('errors.limit.fallbackTitle')
            }
          />
        }
      >
        {dialog?.kind === 'usage-limit' && (
          <UsageLimitBody
            audience={dialog.audience}
            cause={dialog.cause}
            onUpgrade={() => go('/settings/plan')}
            onClose={close}
          />
        )}
      </Modal>

      <NotYearlyPlanModal
        opened={dialog?.kind === 'not-yearly-plan'}
        onClose={close}
        feature={dialog?.kind === 'not-yearly-plan' ? dialog.feature : ''}
      />

      <Modal
        opened={dialog?.kind === 'sensitive-information'}
        onClose={close}
        size="sm"
        title={
          <DialogTitle
            icon={<IconAlertTriangle size={18} />}
            color="red"
            text={t('errors.sensitive.title')}
          />
        }
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('errors.sensitive.text')}
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => go('/home')}>{t('errors.sensitive.backHome')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function DialogTitle({ icon, color, text }: { icon: ReactNode; color: string; text: string }) {
  return (
    <Group gap="sm">
      <ThemeIcon variant="light" color={color} radius="xl">
        {icon}
      </ThemeIcon>
      <Text fw={700}>{text}</Text>
    </Group>
  );
}

function UsageLimitBody({
  audience,
  cause,
  onUpgrade,
  onClose,
}: {
  audience: LimitAudience;
  cause: LimitCause;
  onUpgrade(): void;
  onClose(): void;
}) {
  const { text, action } = limitDialogWording(cause, audience);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('errors.limit.notNow')}
        </Button>
        {audience === 'pro-plus' ? (
          <Button
            component="a"
            href={supportContactUrl(t('errors.limit.mailSubject'))}
            leftSection={<IconMail size={16} />}
            onClick={onClose}
          >
            {action}
          </Button>
        ) : (
          <Button onClick={onUpgrade} leftSection={<IconBolt size={16} />}>
            {action}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
