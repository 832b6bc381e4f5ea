import type { EXTERNAL_TOOLS } from '@moments/contract';

/**
 * Deployment settings read at build time (Vite `VITE_*` variables), so a self-hoster can point the
 * marketing links at their own pages without touching code. The defaults are placeholders on the
 * documentation domain example.com.
 */
const env = import.meta.env;

export const BRAND_NAME = 'Moments';

/** Base address of the external tools the logged-out Tools dropdown opens (spec §2). */
export const EXTERNAL_TOOLS_BASE_URL: string =
  env.VITE_EXTERNAL_TOOLS_BASE_URL || 'https://example.com/tools/';

/** Community chat invite (spec §2: header link and community-chat modal). */
export const COMMUNITY_CHAT_URL: string =
  env.VITE_COMMUNITY_CHAT_URL || 'https://example.com/community';

/** Where pro-plus users are sent by mail when they hit a limit (spec §6). */
export const SUPPORT_EMAIL: string = env.VITE_SUPPORT_EMAIL || 'support@example.com';

export type ExternalTool = (typeof EXTERNAL_TOOLS)[number];

export const EXTERNAL_TOOL_LABELS: Record<ExternalTool, string> = {
  'video-summarizer': 'Video summarizer',
  'video-translator': 'Video translator',
  'subtitle-translator': 'Subtitle translator',
  'auto-subtitle-generator': 'Auto subtitle generator',
  'auto-caption-generator': 'Auto caption generator',
};

export function externalToolUrl(tool: ExternalTool, base = EXTERNAL_TOOLS_BASE_URL): string {
  return new URL(tool, base.endsWith('/') ? base : `${base}/`).toString();
}
