import { Button, Center, Code, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { t } from '../messages/catalogue';
import { isChunkLoadError } from './paths';

/**
 * Route errors. A page chunk that no longer loads ('failed to fetch') means a new version
 * was deployed: offer a reload. Anything else gets an apology with a way home.
 */
export function RouteError() {
  const error = useRouteError();
  if (isChunkLoadError(error)) return <UpdateAvailableDialog />;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" maw={440} ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="red">
          <IconAlertCircle size={26} />
        </ThemeIcon>
        <Title order={1} size="h3">
          {t('routing.error.title')}
        </Title>
        <Text c="dimmed">{t('routing.error.text')}</Text>
        {detail && <Code>{detail}</Code>}
        <Button.Group>
          <Button variant="default" onClick={() => window.location.reload()}>
            {t('routing.reload')}
          </Button>
          <Button component={Link} to="/home">
            {t('routing.goHome')}
          </Button>
        </Button.Group>
      </Stack>
    </Center>
  );
}

function UpdateAvailableDialog() {
  return (
    <Modal
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="sm"
      title={<Text fw={700}>{t('routing.update.title')}</Text>}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t('routing.update.text')}
        </Text>
        <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
          {t('routing.reload')}
        </Button>
      </Stack>
    </Modal>
  );
}
