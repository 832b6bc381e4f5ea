import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconLink, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { absoluteLink } from '../moments/format';

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
    <Modal opened={opened} onClose={onClose} title={`Share this ${what}`}>
      <Stack gap="md">
        {link ? (
          <>
            <Alert color="violet" variant="light">
              Unlisted link: anyone you give it to can read this {what} without an account. It is
              not listed or searchable anywhere.
            </Alert>
            <TextInput
              label="Public link"
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
                Stop sharing
              </Button>
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button onClick={copy} color={copied ? 'teal' : undefined}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm">
              Make an unlisted link to this {what}. Only people you give it to can open it, and you
              can revoke it at any time.
            </Text>
            <Group justify="flex-end">
              <Button
                leftSection={<IconLink size={16} />}
                loading={busy}
                onClick={() => run(onShare)}
              >
                Create link
              </Button>
            </Group>
          </>
        )}
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Modal>
  );
}
