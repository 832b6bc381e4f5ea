import type { EXTERNAL_TOOLS } from '@moments/contract';

/**
 * Deployment settings read at build time (Vite `VITE_*` variables), so a self-hoster can point the
 * marketing links at their own pages without touching code. Without them, every link leads to a
 * working page of this installation.
 */
const env = import.meta.env;

export const BRAND_NAME = 'Moments';

/**
 * Base address of external tool pages for the logged-out Tools dropdown (spec §2). Absent: each
 * tool opens the product's own page that does that job (TOOL_PAGES).
 */
export const EXTERNAL_TOOLS_BASE_URL: string | undefined =
  env.VITE_EXTERNAL_TOOLS_BASE_URL || undefined;

/**
 * Community chat invite (spec §2: header link and community-chat modal). Absent: the help page's
 * feedback form, which reaches the people running this installation.
 */
export const COMMUNITY_CHAT_URL: string = env.VITE_COMMUNITY_CHAT_URL || '/settings/faq?feedback=1';

/**
 * Where pro-plus users are sent by mail when they hit a limit (spec §6). Absent: the help page's
 * feedback form, which is stored and mailed to the installation's OPERATOR_EMAIL.
 */
export const SUPPORT_EMAIL: string | undefined = env.VITE_SUPPORT_EMAIL || undefined;

/** The pro-plus "contact us" target: a mail to SUPPORT_EMAIL, else the feedback form. */
export function supportContactUrl(subject: string, email = SUPPORT_EMAIL): string {
  if (!email) return '/settings/faq?feedback=1';
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`;
}

export type ExternalTool = (typeof EXTERNAL_TOOLS)[number];

export const EXTERNAL_TOOL_LABELS: Record<ExternalTool, string> = {
  'video-summarizer': 'Video summarizer',
  'video-translator': 'Video translator',
  'subtitle-translator': 'Subtitle translator',
  'auto-subtitle-generator': 'Auto subtitle generator',
  'auto-caption-generator': 'Auto caption generator',
};

/**
 * The product's own page for each tool: captions and translation start from the home start form
 * (caption task, target language); summaries are made for any processed video in the library.
 */
export const TOOL_PAGES: Record<ExternalTool, string> = {
  'video-summarizer': '/library/videoTasks',
  'video-translator': '/home',
  'subtitle-translator': '/home',
  'auto-subtitle-generator': '/home',
  'auto-caption-generator': '/home',
};

export function externalToolUrl(
  tool: ExternalTool,
  base: string | undefined = EXTERNAL_TOOLS_BASE_URL,
): string {
  if (!base) return TOOL_PAGES[tool];
  return new URL(tool, base.endsWith('/') ? base : `${base}/`).toString();
}
