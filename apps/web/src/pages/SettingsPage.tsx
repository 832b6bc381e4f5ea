import { SETTINGS_TABS, type SettingsTab } from '@moments/contract';
import {
  IconApi,
  IconCoins,
  IconCrown,
  IconHelpCircle,
  IconPalette,
  IconUser,
} from '@tabler/icons-react';
import { Navigate, useParams } from 'react-router';
import { RouteTabsPage, type RouteTab } from '../layout/RouteTabsPage';
import { ApiSettings } from './settings/ApiSettings';
import { BrandKitSettings } from './settings/BrandKitSettings';
import { CreditHistorySettings } from './settings/CreditHistorySettings';
import { FaqSettings } from './settings/FaqSettings';
import { PlanSettings } from './settings/PlanSettings';
import { ProfileSettings } from './settings/ProfileSettings';
import { t } from '../messages/catalogue';

const TABS: Record<SettingsTab, RouteTab> = {
  profile: { label: 'pages.settings.profile', icon: IconUser },
  plan: { label: 'pages.settings.plan', icon: IconCrown },
  credits: { label: 'pages.settings.credits', icon: IconCoins },
  brand: { label: 'brandKits.tab', icon: IconPalette },
  api: { label: 'integrations.tab', icon: IconApi },
  faq: { label: 'pages.settings.faq', icon: IconHelpCircle },
};

function isSettingsTab(value: string | undefined): value is SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '');
}

/** /settings/{tab}: profile, plan, faq; credits, the credit history; brand, brand kits; api, tokens and webhooks. */
export default function SettingsPage() {
  const { tab } = useParams();
  if (!isSettingsTab(tab)) return <Navigate to="/settings/profile" replace />;

  return (
    <RouteTabsPage
      title={t('title.settings')}
      basePath="/settings"
      tabs={SETTINGS_TABS}
      content={TABS}
      current={tab}
      maxWidth={960}
    >
      {tab === 'profile' && <ProfileSettings />}
      {tab === 'plan' && <PlanSettings />}
      {tab === 'credits' && <CreditHistorySettings />}
      {tab === 'brand' && <BrandKitSettings />}
      {tab === 'api' && <ApiSettings />}
      {tab === 'faq' && <FaqSettings />}
    </RouteTabsPage>
  );
}
