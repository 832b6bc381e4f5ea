import { SETTINGS_TABS, type SettingsTab } from '@moments/contract';
import { IconCrown, IconHelpCircle, IconUser } from '@tabler/icons-react';
import { Navigate, useParams } from 'react-router';
import { RouteTabsPage } from '../layout/RouteTabsPage';
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
  if (!isSettingsTab(tab)) return <Navigate to="/settings/profile" replace />;

  return (
    <RouteTabsPage
      title="Settings"
      basePath="/settings"
      tabs={SETTINGS_TABS}
      content={TABS}
      current={tab}
      maxWidth={960}
    >
      {tab === 'profile' && <ProfileSettings />}
      {tab === 'plan' && <PlanSettings />}
      {tab === 'faq' && <FaqSettings />}
    </RouteTabsPage>
  );
}
