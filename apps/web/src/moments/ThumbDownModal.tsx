import { Button, Chip, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { THUMB_DOWN_REASONS, type ThumbDownReason } from './api';

/** Thumbs down asks why (spec §7: THUMB_DOWN carries content and reason). */
export function ThumbDownModal({
  opened,
  onClose,
  onSubmit,
  submitting,
  error,
}: {
  opened: boolean;
  onClose(): void;
  onSubmit(reason: ThumbDownReason, content: string): void;
  submitting: boolean;
  error?: string | null;
}) {
  const [reason, setReason] = useState<ThumbDownReason | null>(null);
  const [content, setContent] = useState('');
  const needsText = reason === 'Other' && content.trim() === '';

  const close = () => {
    setReason(null);
    setContent('');
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="What's wrong with this moment?" size="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason && !needsText) onSubmit(reason, content.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Your answer helps us pick better moments for you.
          </Text>
          <Chip.Group
            multiple={false}
            value={reason}
            onChange={(value) => setReason(value as ThumbDownReason)}
          >
            <Group gap="xs" role="radiogroup" aria-label="Reason">
              {THUMB_DOWN_REASONS.map((option) => (
                <Chip key={option} value={option} variant="outline" radius="sm">
                  {option}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Textarea
            label="Tell us more"
            description={reason === 'Other' ? 'Required for “Other”' : 'Optional'}
            placeholder="e.g. it starts in the middle of a sentence"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={2000}
            value={content}
            onChange={(event) => setContent(event.currentTarget.value)}
          />
          {error && (
            <Text size="sm" c="red">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!reason || needsText} loading={submitting}>
              Send feedback
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
