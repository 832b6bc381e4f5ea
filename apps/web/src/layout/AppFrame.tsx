import { AppShell, Box, Button, Center, Group, Loader } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { UPDATE_BANNER_HEIGHT_PX } from '@moments/contract';
import type { ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../account/session';
import { ErrorDialogs } from '../errors/ErrorDialogs';
import { NotificationCenter } from '../notifications/NotificationCenter';
import { t } from '../messages/catalogue';
import { rewriteLegacyLink } from '../routing/legacy';
import { MOBILE_MEDIA_QUERY } from '../theme';
import { Brand } from './Brand';
import { AccountActions, GuestActions, MobileAccountActions } from './HeaderActions';
import { BottomMenu, SideMenu } from './menus';
import { TopBarTitle } from './TopBarTitle';
import { TopBarVideoProvider } from './topBarVideo';
import { UpdateBanner, useUpdateBanner } from './UpdateBanner';

const HEADER_HEIGHT = 64;
const MOBILE_HEADER_HEIGHT = 56;
const BOTTOM_MENU_HEIGHT = 64;

function isMobileViewport(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(MOBILE_MEDIA_QUERY).matches;
}

/** Root of every page: legacy rewrites, the layout for the viewport, and the global dialogs. */
export function AppFrame({ children }: { children?: ReactNode }) {
  const location = useLocation();
  // Read synchronously so the first paint already has the right layout.
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY, isMobileViewport(), {
    getInitialValueInEffect: false,
  });
  const legacyTarget = rewriteLegacyLink(location);
  if (legacyTarget) return <Navigate to={legacyTarget} replace />;

  const content = children ?? <Outlet />;
  return (
    <TopBarVideoProvider>
      {isMobile ? <MobileLayout>{content}</MobileLayout> : <WebLayout>{content}</WebLayout>}
      <ErrorDialogs />
      <NotificationCenter />
    </TopBarVideoProvider>
  );
}

function SessionActions() {
  const { status, user } = useSession();
  if (status === 'loading') return <Loader size="sm" type="dots" />;
  return user ? <AccountActions user={user} /> : <GuestActions />;
}

/** The web layout: top banner, header, side menu. */
function WebLayout({ children }: { children: ReactNode }) {
  const banner = useUpdateBanner();
  const headerHeight = HEADER_HEIGHT + (banner.visible ? UPDATE_BANNER_HEIGHT_PX : 0);
  return (
    <AppShell
      header={{ height: headerHeight }}
      navbar={{ width: 232, breakpoint: 0 }}
      padding={0}
      data-layout="web"
    >
      <AppShell.Header>
        {banner.visible && banner.kind && (
          <UpdateBanner kind={banner.kind} onDismiss={banner.dismiss} />
        )}
        <Group h={HEADER_HEIGHT} px="lg" justify="space-between" wrap="nowrap" gap="lg">
          <Group gap="xl" wrap="nowrap" miw={0}>
            <Box w={232 - 24} style={{ flexShrink: 0 }}>
              <Brand />
            </Box>
            <TopBarTitle />
          </Group>
          <SessionActions />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <SideMenu />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <Box p={{ base: 'md', md: 'xl' }} mih={`calc(100dvh - ${headerHeight}px)`}>
          {children}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

/** The mobile layout: top bar with invite button and a bottom menu. */
function MobileLayout({ children }: { children: ReactNode }) {
  const { status, user } = useSession();
  const banner = useUpdateBanner();
  const headerHeight = MOBILE_HEADER_HEIGHT + (banner.visible ? UPDATE_BANNER_HEIGHT_PX : 0);
  return (
    <AppShell
      header={{ height: headerHeight }}
      footer={{ height: BOTTOM_MENU_HEIGHT }}
      padding={0}
      data-layout="mobile"
    >
      <AppShell.Header>
        {banner.visible && banner.kind && (
          <UpdateBanner kind={banner.kind} onDismiss={banner.dismiss} />
        )}
        <Group h={MOBILE_HEADER_HEIGHT} px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Brand compact />
            <TopBarTitle />
          </Group>
          {status === 'loading' ? null : user ? (
            <MobileAccountActions user={user} />
          ) : (
            <Group gap={6} wrap="nowrap">
              <Button component={Link} to="/login" size="xs" variant="default">
                {t('layout.logIn')}
              </Button>
              <Button component={Link} to="/login?type=signup" size="xs">
                {t('layout.signUp')}
              </Button>
            </Group>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <Box p="md">{children}</Box>
      </AppShell.Main>
      <AppShell.Footer>
        <BottomMenu />
      </AppShell.Footer>
    </AppShell>
  );
}

export function PageLoader() {
  return (
    <Center h="60vh">
      <Loader type="dots" />
    </Center>
  );
}
