import { Button, Chip, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { THUMB_DOWN_REASON_LABELS, THUMB_DOWN_REASONS, type ThumbDownReason } from './api';
import { t } from '../messages/catalogue';

/** Thumbs down asks why (THUMB_DOWN carries content and reason). */
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
    <Modal opened={opened} onClose={close} title={t('moments.thumbDown.title')} size="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason && !needsText) onSubmit(reason, content.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('moments.thumbDown.text')}
          </Text>
          <Chip.Group
            multiple={false}
            value={reason}
            onChange={(value) => setReason(value as ThumbDownReason)}
          >
            <Group gap="xs" role="radiogroup" aria-label={t('a11y.reason')}>
              {THUMB_DOWN_REASONS.map((option) => (
                <Chip key={option} value={option} variant="outline" radius="sm">
                  {THUMB_DOWN_REASON_LABELS[option]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Textarea
            label={t('moments.thumbDown.more')}
            description={
              reason === 'Other'
                ? t('moments.thumbDown.more.required')
                : t('moments.thumbDown.more.optional')
            }
            placeholder={t('moments.thumbDown.more.placeholder')}
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
              {t('moments.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={!reason || needsText} loading={submitting}>
              {t('moments.thumbDown.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
