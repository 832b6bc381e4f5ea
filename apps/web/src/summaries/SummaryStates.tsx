import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { t } from '../messages/catalogue';

/** The summary page before it has a summary to show: loading, no such video, none yet, failed. */

export function SummaryLoading() {
  return (
    <Container py="xl">
      <Loader role="status" aria-label={t('summaries.loading')} />
    </Container>
  );
}

export function SummaryVideoMissing() {
  return (
    <Container py="xl" size="sm">
      <Alert
        color="gray"
        title={
          <Title order={1} size="inherit" fw="inherit">
            {t('summaries.videoMissing.title')}
          </Title>
        }
        data-testid="summary-not-found"
      >
        <Stack gap="sm">
          <Text size="sm">{t('summaries.videoMissing.text')}</Text>
          <Group>
            <Button component={Link} to="/library/videoTasks" variant="light">
              {t('summaries.videoMissing.tasks')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    </Container>
  );
}

/** No summary (`missing`), with a button to make one; or the error it failed with. */
export function SummaryUnavailable({
  missing,
  message,
  making,
  onMake,
}: {
  missing: boolean;
  message: string;
  making: boolean;
  onMake(): void;
}) {
  return (
    <Container py="xl" size="sm">
      <Title order={1} size="h2" mb="md">
        {t('summaries.title')}
      </Title>
      {missing ? (
        <Alert color="gray" title={t('summaries.none.title')}>
          <Stack gap="sm">
            <Text size="sm">{t('summaries.none.text')}</Text>
            <Group>
              <Button leftSection={<IconRefresh size={16} />} loading={making} onClick={onMake}>
                {t('summaries.none.make')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : (
        <Alert color="red">{t('summaries.loadFailed', { message })}</Alert>
      )}
    </Container>
  );
}
