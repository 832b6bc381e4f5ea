import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconCheck,
  IconCopy,
  IconExternalLink,
  IconLinkOff,
  IconLock,
  IconWorld,
} from '@tabler/icons-react';

/**
 * The link of a shared moment, already copied when possible. Sharing makes an unlisted link only;
 * "Publish to Moments home" (off unless chosen) also lists it on the public home page and in
 * anonymous search. The dialog says which one is in effect, and "Stop sharing" revokes the link.
 */
export function ShareModal({
  link,
  copied,
  published,
  busy = false,
  onPublishChange,
  onUnshare,
  onClose,
}: {
  link: string | null;
  copied: boolean;
  published: boolean;
  busy?: boolean;
  onPublishChange(publish: boolean): void;
  onUnshare(): void;
  onClose(): void;
}) {
  const reach = published
    ? 'Published to Moments home: anyone can find this moment on the home page and in search, and anyone with the link can watch it.'
    : 'Unlisted: only people with the link can watch this moment. It is not on the home page or in search.';
  return (
    <Modal opened={!!link} onClose={onClose} title="Share this moment" size="md">
      {link && (
        <Stack gap="md">
          <Alert
            variant="light"
            color={published ? 'orange' : copied ? 'teal' : 'violet'}
            icon={published ? <IconWorld size={18} /> : <IconLock size={18} />}
            data-testid="share-reach"
          >
            {copied ? `Link copied to your clipboard. ${reach}` : reach}
          </Alert>
          <TextInput
            label="Link"
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
          <Switch
            label="Publish to Moments home"
            description="Also show this moment to every visitor on the home page and in search."
            checked={published}
            disabled={busy}
            onChange={(event) => onPublishChange(event.currentTarget.checked)}
          />
          <Group justify="space-between">
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconLinkOff size={16} />}
              disabled={busy}
              onClick={onUnshare}
            >
              Stop sharing
            </Button>
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
          <Text size="xs" c="dimmed">
            No account is needed to view it. Viewers see only this moment, not the whole video.
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
