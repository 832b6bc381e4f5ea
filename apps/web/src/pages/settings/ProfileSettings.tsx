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
import { remainingUnits } from '@moments/domain/plans';
import { CREDIT_FEATURES, describePlan } from '../../account/plan';
import { useSession } from '../../account/session';
import { logout } from '../../api/account';
import { userInitial } from '../../layout/HeaderActions';
import { MailPreferencesCard } from '../../mail/MailPreferencesCard';
import { AccountSecurityCard } from './AccountSecurityCard';
import { t, type MessageKey } from '../../messages/catalogue';

const FEATURE_LABELS: Record<string, MessageKey> = {
  CREDIT: 'pages.profile.feature.credits',
  FREE_TOOL_CREDIT: 'pages.profile.feature.freeToolCredits',
  CANVAS_EXPORT: 'pages.profile.feature.canvasExports',
  MAX_VIDEO_MINUTES: 'pages.profile.feature.maxVideoMinutes',
  MAX_CLIP_MINUTES: 'pages.profile.feature.maxClipMinutes',
  BRAND_KITS: 'pages.profile.feature.brandKits',
};

function featureLabel(feature: string): string {
  const key = FEATURE_LABELS[feature];
  if (key) return t(key);
  // A feature without a label yet reads as its name, in words.
  return feature
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** Credit features are shown divided by 10; other features as plain counts. */
function amount(feature: string, value: number): string {
  return CREDIT_FEATURES.has(feature) ? formatCredits(value) : String(value);
}

function EntitlementRow({ entitlement }: { entitlement: Entitlement }) {
  const { feature, limit, usage } = entitlement;
  const remaining = remainingUnits(entitlement);
  const unlimited = limit === -1;
  const usedPercent = unlimited || limit <= 0 ? 0 : Math.min(100, (usage / limit) * 100);
  if (feature === 'MAX_VIDEO_MINUTES') {
    // A limit on each video, nothing that is used up: no "Used 0".
    return (
      <Table.Tr>
        <Table.Td>
          <Text fw={500}>{featureLabel(feature)}</Text>
        </Table.Td>
        <Table.Td>{t('pages.profile.eachVideo')}</Table.Td>
        <Table.Td>{unlimited ? t('pages.unlimited') : amount(feature, limit)}</Table.Td>
        <Table.Td>
          <Text fw={600}>
            {unlimited
              ? t('pages.unlimited')
              : t('pages.profile.minutesPerVideo', { minutes: limit })}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{featureLabel(feature)}</Text>
      </Table.Td>
      <Table.Td>{amount(feature, usage)}</Table.Td>
      <Table.Td>{unlimited ? t('pages.unlimited') : amount(feature, limit)}</Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Text fw={600}>
            {remaining === null ? t('pages.unlimited') : amount(feature, remaining)}
          </Text>
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
              <Title order={2} size="h3" data-testid="profile-username">
                {user.username}
              </Title>
              <Text c="dimmed" data-testid="profile-email">
                {user.email}
              </Text>
              <Group gap="xs" mt={6}>
                <Badge variant="light">{describePlan(plan)}</Badge>
                {user.edu_verified && (
                  <Badge variant="light" color="teal">
                    {t('pages.profile.eduVerified')}
                  </Badge>
                )}
                {user.subscription.cancel_at_period_end && (
                  <Badge variant="light" color="orange">
                    {t('pages.profile.endsThisPeriod')}
                  </Badge>
                )}
              </Group>
            </Stack>
          </Group>
          <Group gap="sm">
            <Button component={Link} to="/settings/plan" variant="light">
              {t('pages.profile.managePlan')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconLogout size={16} />}
              loading={loggingOut}
              onClick={() => void onLogout()}
            >
              {t('pages.profile.logOut')}
            </Button>
          </Group>
        </Group>
      </Card>

      <Card p={{ base: 'md', sm: 'xl' }}>
        <Title order={2} size="h4" mb="md">
          {t('pages.profile.usage')}
        </Title>
        {user.entitlements.length === 0 ? (
          <Text c="dimmed">{t('pages.profile.noAllowances')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm" data-testid="entitlements">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('pages.profile.feature')}</Table.Th>
                  <Table.Th>{t('pages.profile.used')}</Table.Th>
                  <Table.Th>{t('pages.profile.limit')}</Table.Th>
                  <Table.Th>{t('pages.profile.remaining')}</Table.Th>
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

      <AccountSecurityCard />
    </Stack>
  );
}
