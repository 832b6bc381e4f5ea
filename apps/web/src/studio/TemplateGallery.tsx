import { Group, Radio, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { CaptionTemplate } from '@moments/contract';
import type { ReactNode } from 'react';
import classes from './studio.module.css';
import { t } from '../messages/catalogue';

const ACCENT = '#ffd43b';

/** A still hint of each template's look; the live preview shows the real thing. */
const SAMPLES: Record<string, ReactNode> = {
  karaoke: (
    <>
      <span style={{ color: ACCENT }}>{t('studio.sample.karaoke.lit')}</span>{' '}
      {t('studio.sample.karaoke.rest')}
    </>
  ),
  highlight_box: (
    <>
      {t('studio.sample.highlightBox.before')}{' '}
      <span style={{ background: '#7048e8', padding: '0 4px', borderRadius: 3 }}>
        {t('studio.sample.highlightBox.boxed')}
      </span>
    </>
  ),
  pop_in: (
    <>
      {t('studio.sample.popIn.shown')}{' '}
      <span style={{ opacity: 0.6, fontSize: '0.8em' }}>{t('studio.sample.popIn.coming')}</span>
    </>
  ),
  one_word: <span style={{ fontSize: '1.2em' }}>{t('studio.sample.oneWord')}</span>,
  classic: <span style={{ fontWeight: 600 }}>{t('studio.sample.classic')}</span>,
  keyword_color: (
    <>
      {t('studio.sample.keywordColor.plain')}{' '}
      <span style={{ color: '#69db7c' }}>{t('studio.sample.keywordColor.coloured')}</span>
    </>
  ),
};

interface Props {
  templates: CaptionTemplate[] | undefined;
  value: string;
  onChange(template: string): void;
}

/** The caption templates as selectable cards (a radio group: one template per clip). */
export function TemplateGallery({ templates, value, onChange }: Props) {
  if (!templates) {
    return (
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} h={86} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Radio.Group value={value} onChange={onChange} label={t('studio.template')}>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" mt={6}>
        {templates.map((template) => (
          <Radio.Card
            key={template.id}
            value={template.id}
            radius="md"
            p="xs"
            aria-label={template.name}
            style={
              template.id === value
                ? {
                    borderColor: 'var(--mantine-color-violet-6)',
                    background: 'var(--mantine-color-violet-0)',
                  }
                : undefined
            }
          >
            <Stack gap={6}>
              <div className={classes.templateSample} style={{ textAlign: 'center' }}>
                {SAMPLES[template.id] ?? template.name.toUpperCase()}
              </div>
              <Group gap={6} wrap="nowrap" align="flex-start">
                <Radio.Indicator size="xs" mt={2} />
                <div>
                  <Text size="sm" fw={600} lh={1.2}>
                    {template.name}
                  </Text>
                  <Text size="xs" c="dimmed" lh={1.25}>
                    {template.description}
                  </Text>
                </div>
              </Group>
            </Stack>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
