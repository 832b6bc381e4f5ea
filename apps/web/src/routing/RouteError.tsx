import { Button, Center, Code, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError } from './paths';

/**
 * Route errors. A page chunk that no longer loads ('failed to fetch', spec §8) means a new version
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
        <Title order={3}>Something went wrong</Title>
        <Text c="dimmed">This page hit an unexpected error. Reloading usually helps.</Text>
        {detail && <Code>{detail}</Code>}
        <Button.Group>
          <Button variant="default" onClick={() => window.location.reload()}>
            Reload
          </Button>
          <Button component={Link} to="/home">
            Go home
          </Button>
        </Button.Group>
      </Stack>
    </Center>
  );
}

export function UpdateAvailableDialog() {
  return (
    <Modal
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="sm"
      title={<Text fw={700}>A new version is available</Text>}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          Moments was updated while this tab was open. Reload to get the latest version.
        </Text>
        <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Stack>
    </Modal>
  );
}
