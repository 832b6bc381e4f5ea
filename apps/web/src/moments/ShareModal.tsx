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
import { t } from '../messages/catalogue';

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
  const reach = published ? t('moments.share.published') : t('moments.share.unlisted');
  return (
    <Modal opened={!!link} onClose={onClose} title={t('title.shareThisMoment')} size="md">
      {link && (
        <Stack gap="md">
          <Alert
            variant="light"
            color={published ? 'orange' : copied ? 'teal' : 'violet'}
            icon={published ? <IconWorld size={18} /> : <IconLock size={18} />}
            data-testid="share-reach"
          >
            {copied ? t('moments.share.copied', { reach }) : reach}
          </Alert>
          <TextInput
            label={t('moments.share.link')}
            value={link}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            data-testid="share-link"
            rightSection={
              <CopyButton value={link} timeout={2000}>
                {({ copied: justCopied, copy }) => (
                  <Tooltip
                    label={justCopied ? t('summaries.share.copied') : t('moments.share.copy')}
                    withArrow
                  >
                    <ActionIcon
                      variant="subtle"
                      color={justCopied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={t('a11y.copyLink')}
                    >
                      {justCopied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            }
          />
          <Switch
            label={t('moments.share.publish')}
            description={t('moments.share.publish.text')}
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
              {t('summaries.share.stop')}
            </Button>
            <Button
              component="a"
              href={link}
              target="_blank"
              rel="noopener"
              variant="light"
              leftSection={<IconExternalLink size={16} />}
            >
              {t('moments.share.open')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('moments.share.note')}
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
