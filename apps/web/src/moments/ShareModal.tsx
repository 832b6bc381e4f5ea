import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink, IconWorld } from '@tabler/icons-react';

/** The public link of a shared moment, already copied when possible; anyone with it can watch. */
export function ShareModal({
  link,
  copied,
  onClose,
}: {
  link: string | null;
  copied: boolean;
  onClose(): void;
}) {
  return (
    <Modal opened={!!link} onClose={onClose} title="Share this moment" size="md">
      {link && (
        <Stack gap="md">
          <Alert variant="light" color={copied ? 'teal' : 'violet'} icon={<IconWorld size={18} />}>
            {copied
              ? 'Link copied to your clipboard. Anyone with the link can watch this moment.'
              : 'Anyone with the link can watch this moment.'}
          </Alert>
          <TextInput
            label="Public link"
            value={link}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            data-testid="share-link"
            rightSection={
              <CopyButton value={link} timeout={2000}>
                {({ copied: justCopied, copy }) => (
                  <Tooltip label={justCopied ? 'Copied' : 'Copy'} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={justCopied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label="Copy link"
                    >
                      {justCopied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            }
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              No account is needed to view it.
            </Text>
            <Button
              component="a"
              href={link}
              target="_blank"
              rel="noopener"
              variant="light"
              leftSection={<IconExternalLink size={16} />}
            >
              Open
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
