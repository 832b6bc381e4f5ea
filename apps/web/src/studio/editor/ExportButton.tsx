import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** An editor's export button with what the export costs or leaves, said before the click. */
export function ExportButton({
  children,
  onClick,
  loading,
  disabled,
  note,
  noteTestId,
}: {
  children: ReactNode;
  onClick(): void;
  loading: boolean;
  disabled: boolean;
  note: string | null;
  noteTestId: string;
}) {
  return (
    <Stack gap={2} align="flex-end">
      <Button
        leftSection={<IconDownload size={18} />}
        onClick={onClick}
        loading={loading}
        disabled={disabled}
      >
        {children}
      </Button>
      {note && (
        <Text size="xs" c="dimmed" data-testid={noteTestId}>
          {note}
        </Text>
      )}
    </Stack>
  );
}
