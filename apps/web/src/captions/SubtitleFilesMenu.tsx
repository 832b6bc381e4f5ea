import { Button, Menu } from '@mantine/core';
import type { SubtitleFormat, SubtitleLanguage } from '@moments/contract';
import { IconFileText } from '@tabler/icons-react';
import { subtitleUrl, type TaskCaptionOptions } from './api';
import { t } from '../messages/catalogue';

const SUBTITLE_FORMATS: { value: SubtitleFormat; label: string }[] = [
  { value: 'srt', label: 'SRT' },
  { value: 'vtt', label: 'WebVTT' },
  { value: 'ass', label: t('captions.files.assStyled') },
];

/** The caption page's subtitle downloads: each language the captions have, in each format. */
export function SubtitleFilesMenu({
  taskId,
  options,
  translation,
}: {
  taskId: string;
  options: TaskCaptionOptions;
  /** The translation's language, when the captions have one that can be had. */
  translation: string | undefined;
}) {
  const subtitleLangs: { value: SubtitleLanguage; label: string }[] = [
    { value: 'source', label: t('captions.files.spoken') },
    ...(translation
      ? [
          {
            value: 'target' as const,
            label: t('captions.files.translation', { language: translation }),
          },
          { value: 'both' as const, label: t('captions.files.both') },
        ]
      : []),
  ];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconFileText size={18} />}>
          {t('captions.files.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {subtitleLangs.map((lang) => (
          <div key={lang.value}>
            <Menu.Label>{lang.label}</Menu.Label>
            {SUBTITLE_FORMATS.map((format) => (
              <Menu.Item
                key={format.value}
                component="a"
                href={subtitleUrl(taskId, format.value, lang.value, options)}
                download
              >
                {format.label}
              </Menu.Item>
            ))}
          </div>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
