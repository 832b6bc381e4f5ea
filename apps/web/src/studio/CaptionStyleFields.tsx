import { Alert, Anchor, Group, Select } from '@mantine/core';
import { Link } from 'react-router';
import type { CaptionDisplay, CaptionTemplate, TranslationSupport } from '@moments/contract';
import { CAPTION_DISPLAY_OPTIONS } from './options';
import { TemplateGallery } from './TemplateGallery';
import { CaptionStyleEditor } from './CaptionStyleEditor';
import { t } from '../messages/catalogue';

interface Props {
  templates: CaptionTemplate[] | undefined;
  template: string;
  onTemplateChange(template: string): void;
  display: CaptionDisplay;
  onDisplayChange(display: CaptionDisplay): void;
  /** The languages this install offers (GET /api/captions/languages). */
  languages: TranslationSupport['languages'];
  targetLang: string | null;
  onTargetLangChange(language: string | null): void;
  /** The style over the template (fonts, colours, outline, box, position, paging, emphasis). */
  styleEditor: Parameters<typeof CaptionStyleEditor>[0];
}

/** Whether a caption display needs a target language. */
export const displayNeedsTranslation = (display: CaptionDisplay) =>
  display === 'all' || display === 'translate';

/**
 * The caption style both editors share (a whole caption task, a moment's clip): the template, what
 * the captions show and, for a translation, the language, with why a language cannot be had here.
 */
export function CaptionStyleFields(props: Props) {
  const needsTranslation = displayNeedsTranslation(props.display);
  const chosen = props.languages.find((language) => language.code === props.targetLang);
  return (
    <>
      <TemplateGallery
        templates={props.templates}
        value={props.template}
        onChange={props.onTemplateChange}
      />
      <Group grow align="flex-start">
        <Select
          label={t('studio.display')}
          data={CAPTION_DISPLAY_OPTIONS}
          value={props.display}
          onChange={(value) => value && props.onDisplayChange(value as CaptionDisplay)}
          allowDeselect={false}
        />
        {needsTranslation && (
          <Select
            label={t('studio.translateInto')}
            placeholder={t('studio.translateInto.placeholder')}
            data={props.languages.map((language) => ({
              value: language.code,
              label: language.available
                ? language.name
                : t('studio.translateInto.needsLlm', { language: language.name }),
            }))}
            value={props.targetLang}
            onChange={props.onTargetLangChange}
            searchable
          />
        )}
      </Group>
      {needsTranslation && chosen && !chosen.available && (
        // Worded here, not the server's note: what this server offers now and how its operator
        // adds translation (the FAQ answer links the configuration docs).
        <Alert color="gray" data-testid="translation-note">
          {t('ingest.start.needsLlm')}{' '}
          <Anchor component={Link} to="/settings/faq?question=translation" inherit>
            {t('ingest.start.needsLlmHow')}
          </Anchor>
        </Alert>
      )}
      <CaptionStyleEditor {...props.styleEditor} />
    </>
  );
}
