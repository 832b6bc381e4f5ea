import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconBolt, IconMail, IconWifiOff } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ERROR_CODES } from '@moments/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { USER_INFO_QUERY_KEY, useSession } from '../account/session';
import { setApiErrorHandler, type NetworkFailureDecision } from '../api/client';
import { SUPPORT_EMAIL } from '../config';
import { NotYearlyPlanModal } from '../popups/NotYearlyPlanModal';
import { errorDialogFor, type ErrorDialog } from './catalogue';

type CatalogueDialog = Exclude<ErrorDialog, { kind: 'network-disconnected' }>;

/**
 * spec §8 global handler: installs itself into the API client and shows the catalogue's dialogs.
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
  const [waitingRequests, setWaitingRequests] = useState<
    Array<(d: NetworkFailureDecision) => void>
  >([]);

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
        onNetworkFailure() {
          return new Promise<NetworkFailureDecision>((resolve) =>
            setWaitingRequests((waiting) => [...waiting, resolve]),
          );
        },
      }),
    [queryClient],
  );

  const settleNetwork = (decision: NetworkFailureDecision) => {
    setWaitingRequests((waiting) => {
      for (const resolve of waiting) resolve(decision);
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
        opened={waitingRequests.length > 0}
        onClose={() => settleNetwork('give-up')}
        title={
          <DialogTitle
            icon={<IconWifiOff size={18} />}
            color="orange"
            text="Network Disconnected"
          />
        }
        size="sm"
      >
        <Stack>
          <Text size="sm" c="dimmed">
            We couldn't reach the Moments server. Check your connection, then try again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => settleNetwork('give-up')}>
              Close
            </Button>
            <Button onClick={() => settleNetwork('retry')}>Retry</Button>
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
            text="You've reached your limit"
          />
        }
      >
        {dialog?.kind === 'usage-limit' && (
          <UsageLimitBody
            audience={dialog.audience}
            onUpgrade={() => go('/settings/plan')}
            onClose={close}
          />
        )}
      </Modal>

      <NotYearlyPlanModal opened={dialog?.kind === 'not-yearly-plan'} onClose={close} />

      <Modal
        opened={dialog?.kind === 'sensitive-information'}
        onClose={close}
        size="sm"
        title={
          <DialogTitle
            icon={<IconAlertTriangle size={18} />}
            color="red"
            text="This video is restricted"
          />
        }
      >
        <Stack>
          <Text size="sm" c="dimmed">
            This video contains content we can't process. Please try a different video.
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => go('/home')}>Back to home</Button>
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
  onUpgrade,
  onClose,
}: {
  audience: 'free' | 'paid' | 'pro-plus';
  onUpgrade(): void;
  onClose(): void;
}) {
  const text = {
    free: 'You have used the credits included in the free plan. Upgrade to keep finding moments and exporting clips.',
    paid: 'You have used the credits of your current plan for this period. Move to a bigger plan or add credits to continue.',
    'pro-plus':
      "You have used the credits of the Pro plus plan. Write to us and we'll raise your limits.",
  }[audience];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Not now
        </Button>
        {audience === 'pro-plus' ? (
          <Button
            component="a"
            href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Raise my Moments limits')}`}
            leftSection={<IconMail size={16} />}
            onClick={onClose}
          >
            Contact us
          </Button>
        ) : (
          <Button onClick={onUpgrade} leftSection={<IconBolt size={16} />}>
            {audience === 'free' ? 'Upgrade' : 'See plans'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
