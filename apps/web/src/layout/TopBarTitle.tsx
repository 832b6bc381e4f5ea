import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import { isMenuRoot, topBarTitleKind } from '../routing/paths';
import { useTopBarVideoState } from './topBarVideo';
import { VideoTitleHoverCard } from './VideoTitleHoverCard';
import { t } from '../messages/catalogue';

/** The back button: one step back when there is history, otherwise /home replacing the entry. */
function BackButton() {
  const navigate = useNavigate();
  const goBack = () => {
    const state = window.history.state as { idx?: number } | null;
    if (state?.idx && state.idx > 0) void navigate(-1);
    else void navigate('/home', { replace: true });
  };
  return (
    <Tooltip label={t('a11y.back')}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        onClick={goBack}
        aria-label={t('a11y.back')}
      >
        <IconArrowLeft size={20} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The route-dependent part of the header: back button and title. */
export function TopBarTitle() {
  const { pathname } = useLocation();
  const { video } = useTopBarVideoState();
  const kind = topBarTitleKind(pathname);
  let title = null;
  if (kind === 'library') title = <Text fw={700}>{t('title.library')}</Text>;
  else if (kind === 'settings') title = <Text fw={700}>{t('title.settings')}</Text>;
  else if (kind === 'video' && video) title = <VideoTitleHoverCard video={video} />;
  const showBack = !isMenuRoot(pathname);
  if (!title && !showBack) return null;
  return (
    <Group gap="xs" wrap="nowrap" miw={0} data-testid="top-bar-title">
      {showBack && <BackButton />}
      {title}
    </Group>
  );
}
