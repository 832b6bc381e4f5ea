import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconLink, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { absoluteLink } from '../moments/format';
import { t } from '../messages/catalogue';

/**
 * Share dialog of a summary or a note: an unlisted public link (nobody finds it who was not
 * given it), created on request and revocable; a revoked link answers "not found".
 */
export function ShareLinkModal({
  opened,
  onClose,
  what,
  sharePath,
  onShare,
  onUnshare,
}: {
  opened: boolean;
  onClose(): void;
  what: 'summary' | 'note';
  sharePath: string | null;
  onShare(): Promise<string>;
  onUnshare(): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    work()
      .catch((failure: Error) => setError(failure.message))
      .finally(() => setBusy(false));
  };
  const link = sharePath ? absoluteLink(sharePath) : null;
  return (
    <Modal opened={opened} onClose={onClose} title={t(`summaries.share.title.${what}`)}>
      <Stack gap="md">
        {link ? (
          <>
            <Alert color="violet" variant="light">
              {t(`summaries.share.shared.${what}`)}
            </Alert>
            <TextInput
              label={t('summaries.share.link')}
              value={link}
              readOnly
              data-testid="share-link"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Group justify="space-between">
              <Button
                variant="default"
                color="red"
                leftSection={<IconLinkOff size={16} />}
                loading={busy}
                onClick={() => run(onUnshare)}
              >
                {t('summaries.share.stop')}
              </Button>
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button onClick={copy} color={copied ? 'teal' : undefined}>
                    {copied ? t('summaries.share.copied') : t('a11y.copyLink')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm">{t(`summaries.share.notShared.${what}`)}</Text>
            <Group justify="flex-end">
              <Button
                leftSection={<IconLink size={16} />}
                loading={busy}
                onClick={() => run(onShare)}
              >
                {t('summaries.share.start')}
              </Button>
            </Group>
          </>
        )}
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Modal>
  );
}
