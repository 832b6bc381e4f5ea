import { t } from '../messages/catalogue';

/** Languages offered in the start form: automatic detection plus the most common ones. */
export const SOURCE_LANGUAGES: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'auto', label: t('ingest.language.auto') },
  { value: 'en', label: t('ingest.language.en') },
  { value: 'es', label: t('ingest.language.es') },
  { value: 'fr', label: t('ingest.language.fr') },
  { value: 'de', label: t('ingest.language.de') },
  { value: 'it', label: t('ingest.language.it') },
  { value: 'pt', label: t('ingest.language.pt') },
  { value: 'nl', label: t('ingest.language.nl') },
  { value: 'pl', label: t('ingest.language.pl') },
  { value: 'ru', label: t('ingest.language.ru') },
  { value: 'uk', label: t('ingest.language.uk') },
  { value: 'tr', label: t('ingest.language.tr') },
  { value: 'ar', label: t('ingest.language.ar') },
  { value: 'he', label: t('ingest.language.he') },
  { value: 'hi', label: t('ingest.language.hi') },
  { value: 'th', label: t('ingest.language.th') },
  { value: 'vi', label: t('ingest.language.vi') },
  { value: 'id', label: t('ingest.language.id') },
  { value: 'zh', label: t('ingest.language.zh') },
  { value: 'ja', label: t('ingest.language.ja') },
  { value: 'ko', label: t('ingest.language.ko') },
];

export const TARGET_LANGUAGES = SOURCE_LANGUAGES.filter((language) => language.value !== 'auto');

/** Names of the languages outside the list, from the browser ("Swahili" for `sw`). */
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A language code as a person reads it: never the bare code on screen. */
export function languageLabel(code: string | null | undefined): string | null {
  if (!code) return null;
  const listed = SOURCE_LANGUAGES.find((language) => language.value === code)?.label;
  if (listed) return listed;
  try {
    return LANGUAGE_NAMES.of(code) ?? t('ingest.language.unknown');
  } catch {
    // Not a well-formed code (an old row's odd value): no name to give it.
    return t('ingest.language.unknown');
  }
}
