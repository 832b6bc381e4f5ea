import { Stack, Tabs, Title } from '@mantine/core';
import { SETTINGS_TABS, type SettingsTab } from '@moments/contract';
import { IconCrown, IconHelpCircle, IconUser } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { FaqSettings } from './settings/FaqSettings';
import { PlanSettings } from './settings/PlanSettings';
import { ProfileSettings } from './settings/ProfileSettings';

const TABS: Record<SettingsTab, { label: string; icon: typeof IconUser }> = {
  profile: { label: 'Profile', icon: IconUser },
  plan: { label: 'Plan', icon: IconCrown },
  faq: { label: 'Help & FAQ', icon: IconHelpCircle },
};

function isSettingsTab(value: string | undefined): value is SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '');
}

/** spec §2 /settings/{tab}: profile, plan, faq. */
export default function SettingsPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  if (!isSettingsTab(tab)) return <Navigate to="/settings/profile" replace />;

  return (
    <Stack maw={960} mx="auto" gap="lg">
      <Title order={2}>Settings</Title>
      <Tabs value={tab} onChange={(next) => next && void navigate(`/settings/${next}`)}>
        <Tabs.List>
          {SETTINGS_TABS.map((key) => {
            const { label, icon: Icon } = TABS[key];
            return (
              <Tabs.Tab key={key} value={key} leftSection={<Icon size={16} />}>
                {label}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
      </Tabs>
      {tab === 'profile' && <ProfileSettings />}
      {tab === 'plan' && <PlanSettings />}
      {tab === 'faq' && <FaqSettings />}
    </Stack>
  );
}
