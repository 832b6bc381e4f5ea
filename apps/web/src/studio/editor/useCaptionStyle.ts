import type { CaptionDisplay, CaptionStyle, ClipFraming } from '@moments/contract';
import { mergeCaptionStyles } from '@moments/domain/brand-kits';
import { useMemo, useState } from 'react';
import { isApiError, type ApiError } from '../../api/client';
import { useTranslationSupport } from '../../captions/api';
import { useCaptionFonts, useCaptionTemplates } from '../api';
import { displayNeedsTranslation } from '../CaptionStyleFields';
import { t } from '../../messages/catalogue';

/** Options are sent this long after the last change: typing and dragging stay smooth. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * The caption style both editors hold (template, what the captions show, the translation's
 * language), ready to spread into CaptionStyleFields, and whether a translation can be had.
 */
export function useCaptionStyle(
  initialDisplay: CaptionDisplay,
  initialLang: string | null,
  initialTemplate = 'karaoke',
  initialStyle: CaptionStyle = {},
  /** The applied brand kit's style: the controls start from it, over the template. */
  kitStyle?: CaptionStyle,
) {
  const templates = useCaptionTemplates();
  const fonts = useCaptionFonts().data ?? [];
  const [overrides, setOverrides] = useState<CaptionStyle>(initialStyle);
  const languages = useTranslationSupport().data?.languages ?? [];
  const [template, setTemplate] = useState(initialTemplate);
  const [display, setDisplay] = useState<CaptionDisplay>(initialDisplay);
  const [targetLang, setTargetLang] = useState<string | null>(initialLang);
  const needsTranslation = displayNeedsTranslation(display);
  const chosenLanguage = languages.find((language) => language.code === targetLang);
  const templateStyle = templates.data?.find((entry) => entry.id === template)?.style;
  // The export lays the kit's style over the template, then the changes: the controls show that.
  const baseStyle = useMemo(
    () => templateStyle && (mergeCaptionStyles(templateStyle, kitStyle) as typeof templateStyle),
    [templateStyle, kitStyle],
  );
  return {
    template,
    /** The style fields the user changed over the template and the kit (the export's `style`). */
    overrides,
    /** Forgets every change (a kit just applied brings its own look). */
    resetOverrides: () => setOverrides({}),
    display,
    targetLang,
    needsTranslation,
    /** The language the preview and export translate into, when the display asks for one. */
    translateTo: needsTranslation && targetLang ? targetLang : undefined,
    /** A translation is asked for, but no language is chosen or the chosen one is not here. */
    translationBlocked: needsTranslation && (!targetLang || chosenLanguage?.available === false),
    fields: {
      templates: templates.data,
      template,
      onTemplateChange: setTemplate,
      display,
      onDisplayChange: setDisplay,
      languages,
      targetLang,
      onTargetLangChange: setTargetLang,
      styleEditor: {
        templateStyle: baseStyle,
        resetLabel: kitStyle ? t('style.resetToKit') : t('style.reset'),
        value: overrides,
        onChange: setOverrides,
        fonts,
      },
    },
  };
}

/** A plan for another frame shape (the options are still settling) would stretch the picture. */
export function framingFor(
  framing: ClipFraming | undefined,
  frame: { width: number; height: number },
): ClipFraming | undefined {
  return framing && framing.output.width === frame.width && framing.output.height === frame.height
    ? framing
    : undefined;
}

/** A request's error as the API said it, for the editors' notes; null for none or a crash. */
export const apiErrorOf = (error: unknown): ApiError | null =>
  error && isApiError(error) ? error : null;
