import type { EXTERNAL_TOOLS } from '@moments/contract';
import { t } from './messages/catalogue';

/**
 * Deployment settings read at build time (Vite `VITE_*` variables), so a self-hoster can point the
 * marketing links at their own pages without touching code. Without them, every link leads to a
 * working page of this installation.
 */
const env = import.meta.env;

export const BRAND_NAME = 'Moments';

/**
 * Base address of external tool pages for the logged-out Tools dropdown. Absent: each
 * tool opens the product's own start form for that job (externalToolUrl).
 */
const EXTERNAL_TOOLS_BASE_URL: string | undefined = env.VITE_EXTERNAL_TOOLS_BASE_URL || undefined;

/**
 * Community chat invite (header link and community-chat modal). Absent: the help page's
 * feedback form, which reaches the people running this installation.
 */
export const COMMUNITY_CHAT_URL: string = env.VITE_COMMUNITY_CHAT_URL || '/settings/faq?feedback=1';

/**
 * Where pro-plus users are sent by mail when they hit a limit. Absent: the help page's
 * feedback form, which is stored and mailed to the installation's OPERATOR_EMAIL.
 */
const SUPPORT_EMAIL: string | undefined = env.VITE_SUPPORT_EMAIL || undefined;

/** The pro-plus "contact us" target: a mail to SUPPORT_EMAIL, else the feedback form. */
export function supportContactUrl(subject: string, email = SUPPORT_EMAIL): string {
  if (!email) return '/settings/faq?feedback=1';
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`;
}

export type ExternalTool = (typeof EXTERNAL_TOOLS)[number];

export const EXTERNAL_TOOL_LABELS: Record<ExternalTool, string> = {
  'video-summarizer': t('tools.video-summarizer'),
  'video-translator': t('tools.video-translator'),
  'subtitle-translator': t('tools.subtitle-translator'),
  'auto-subtitle-generator': t('tools.auto-subtitle-generator'),
  'auto-caption-generator': t('tools.auto-caption-generator'),
};

/** What the home start form preselects for a tool: the task it is, and translation. */
export const TOOL_START: Record<ExternalTool, { mode: 'viral' | 'caption'; translate: boolean }> = {
  'video-summarizer': { mode: 'viral', translate: false },
  'video-translator': { mode: 'caption', translate: true },
  'subtitle-translator': { mode: 'caption', translate: true },
  'auto-subtitle-generator': { mode: 'caption', translate: false },
  'auto-caption-generator': { mode: 'caption', translate: false },
};

export function isExternalTool(value: string | null): value is ExternalTool {
  return value !== null && value in TOOL_START;
}

/**
 * The product's own page for each tool: the home start form with the tool's task chosen (a
 * caption task; a caption task with a target language; every processed video has a summary).
 */
export function externalToolUrl(
  tool: ExternalTool,
  base: string | undefined = EXTERNAL_TOOLS_BASE_URL,
): string {
  if (!base) return `/home?tool=${tool}`;
  return new URL(tool, base.endsWith('/') ? base : `${base}/`).toString();
}
