import { Button, Group, Modal, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { t } from '../../messages/catalogue';
import type { DraftStatus } from './useDraftAutosave';

/** Whether the clip's changes are kept on the server, beside the export button. */
export function DraftStatusLine({ status }: { status: DraftStatus }) {
  const failed = status === 'failed';
  return (
    <Group gap={4} wrap="nowrap" role="status" aria-live="polite" data-testid="draft-status">
      {status === 'saved' && <IconCheck size={14} aria-hidden />}
      {failed && <IconAlertTriangle size={14} color="var(--mantine-color-red-7)" aria-hidden />}
      <Text size="xs" c={failed ? 'red.8' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
        {t(`studio.draft.${status}`)}
      </Text>
    </Group>
  );
}

/** Asked when leaving the editor while its latest changes could not be saved. */
export function LeaveUnsavedDialog({
  opened,
  onStay,
  onLeave,
}: {
  opened: boolean;
  onStay(): void;
  onLeave(): void;
}) {
  return (
    <Modal opened={opened} onClose={onStay} title={t('studio.draft.leave.title')} centered>
      <Text size="sm">{t('studio.draft.leave.text')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onLeave}>
          {t('studio.draft.leave.leave')}
        </Button>
        <Button onClick={onStay} data-autofocus>
          {t('studio.draft.leave.stay')}
        </Button>
      </Group>
    </Modal>
  );
}
