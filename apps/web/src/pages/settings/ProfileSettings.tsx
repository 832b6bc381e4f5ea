import {
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { Entitlement } from '@moments/contract';
import { IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatCredits } from '@moments/domain/format';
import { CREDIT_FEATURES, describePlan, remainingOf } from '../../account/plan';
import { useSession } from '../../account/session';
import { logout } from '../../api/account';
import { userInitial } from '../../layout/HeaderActions';
import { MailPreferencesCard } from '../../mail/MailPreferencesCard';

const FEATURE_LABELS: Record<string, string> = {
  CREDIT: 'Credits',
  FREE_TOOL_CREDIT: 'Free tool credits',
  CANVAS_EXPORT: 'Canvas exports',
  MAX_VIDEO_MINUTES: 'Longest video (minutes)',
};

function featureLabel(feature: string): string {
  return (
    FEATURE_LABELS[feature] ??
    feature
      .toLowerCase()
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ')
  );
}

/** spec §9: credit features are shown divided by 10; other features as plain counts. */
function amount(feature: string, value: number): string {
  return CREDIT_FEATURES.has(feature) ? formatCredits(value) : String(value);
}

function EntitlementRow({ entitlement }: { entitlement: Entitlement }) {
  const { feature, limit, usage } = entitlement;
  const remaining = remainingOf(entitlement);
  const unlimited = limit === -1;
  const usedPercent = unlimited || limit <= 0 ? 0 : Math.min(100, (usage / limit) * 100);
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{featureLabel(feature)}</Text>
      </Table.Td>
      <Table.Td>{amount(feature, usage)}</Table.Td>
      <Table.Td>{unlimited ? 'Unlimited' : amount(feature, limit)}</Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Text fw={600}>{remaining === null ? 'Unlimited' : amount(feature, remaining)}</Text>
          {!unlimited && <Progress value={100 - usedPercent} size="sm" aria-hidden />}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

export function ProfileSettings() {
  const { user } = useSession();
  const [loggingOut, setLoggingOut] = useState(false);
  if (!user) return null;

  const onLogout = async () => {
    setLoggingOut(true);
    try {
      await logout();
    } finally {
      // A full load drops every per-user cache (queries, realtime) in one go, and avoids the login
      // guard of this page reacting to the cleared user before the navigation lands.
      window.location.assign('/home');
    }
  };

  const plan = user.subscription.current_plan;
  return (
    <Stack gap="lg">
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="lg">
          <Group gap="lg" wrap="nowrap">
            <Avatar size={64} radius="xl" color="violet" variant="filled">
              {userInitial(user)}
            </Avatar>
            <Stack gap={2} miw={0}>
              <Title order={3} data-testid="profile-username">
                {user.username}
              </Title>
              <Text c="dimmed" data-testid="profile-email">
                {user.email}
              </Text>
              <Group gap="xs" mt={6}>
                <Badge variant="light">{describePlan(plan)}</Badge>
                {user.edu_verified && (
                  <Badge variant="light" color="teal">
                    Education verified
                  </Badge>
                )}
                {user.subscription.cancel_at_period_end && (
                  <Badge variant="light" color="orange">
                    Ends at the end of this period
                  </Badge>
                )}
              </Group>
            </Stack>
          </Group>
          <Group gap="sm">
            <Button component={Link} to="/settings/plan" variant="light">
              Manage plan
            </Button>
            <Button
              variant="default"
              leftSection={<IconLogout size={16} />}
              loading={loggingOut}
              onClick={() => void onLogout()}
            >
              Log out
            </Button>
          </Group>
        </Group>
      </Card>

      <Card p={{ base: 'md', sm: 'xl' }}>
        <Title order={4} mb="md">
          Usage
        </Title>
        {user.entitlements.length === 0 ? (
          <Text c="dimmed">Your plan has no usage allowances yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm" data-testid="entitlements">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Feature</Table.Th>
                  <Table.Th>Used</Table.Th>
                  <Table.Th>Limit</Table.Th>
                  <Table.Th>Remaining</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {user.entitlements.map((entitlement) => (
                  <EntitlementRow key={entitlement.feature} entitlement={entitlement} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>

      <MailPreferencesCard />
    </Stack>
  );
}
