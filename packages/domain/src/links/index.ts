/**
 * Link rules and which platform a video link belongs to. Pure: no network.
 * Whether an address is safe to fetch is the link guard's job (`@moments/net`).
 */
import type { UrlSource } from '@moments/contract';

export type VideoLinkErrorCode = 'INVALID_URL';

export class VideoLinkError extends Error {
  override name = 'VideoLinkError';
  readonly code: VideoLinkErrorCode = 'INVALID_URL';
}

/** Default address prefix of our content-delivery network; deployments pass their own. */
export const DEFAULT_CDN_BASE = 'https://cdn.moments.video/';

interface PlatformHosts {
  source: Exclude<UrlSource, 'upload' | 'direct'>;
  /** Registrable domains: the host itself or any subdomain of it matches. */
  domains: string[];
}

const PLATFORMS: PlatformHosts[] = [
  {
    source: 'youtube',
    domains: ['youtube.com', 'youtu.be', 'youtube-nocookie.com', 'youtubekids.com'],
  },
  { source: 'google_drive', domains: ['drive.google.com', 'drive.usercontent.google.com'] },
  { source: 'dailymotion', domains: ['dailymotion.com', 'dai.ly'] },
  { source: 'vimeo', domains: ['vimeo.com'] },
  { source: 'tiktok', domains: ['tiktok.com'] },
  { source: 'facebook', domains: ['facebook.com', 'fb.watch', 'fb.com'] },
  { source: 'twitch', domains: ['twitch.tv'] },
  { source: 'bilibili', domains: ['bilibili.com', 'b23.tv', 'bilibili.tv'] },
];

/**
 * Parse what a user typed or pasted as a video link. Accepts a missing scheme
 * (`youtube.com/watch?v=...`) and surrounding spaces; only http and https are links.
 */
export function parseVideoLink(input: string): URL {
  const trimmed = input.trim();
  if (!trimmed) throw new VideoLinkError('Please enter a video link.');
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^/:]+:\d+(\/|$)/.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
  } catch {
    throw new VideoLinkError('This is not a valid link.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VideoLinkError('Only http and https links are supported.');
  }
  if (!url.hostname || url.username || url.password) {
    throw new VideoLinkError('This is not a valid link.');
  }
  // Without a scheme, a lone word ("quayside") is a search, not the host `https://quayside/`:
  // only a dotted host, localhost or an IP address makes it a link.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!hasScheme && !/\./.test(host) && host !== 'localhost' && !host.includes(':')) {
    throw new VideoLinkError('This is not a valid link.');
  }
  return url;
}

function hostMatches(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * Which source a link is: a known platform, or `direct` for any other http(s) address
 * (a media file or a page yt-dlp's generic extractor may handle). Throws VideoLinkError for
 * something that is not an http(s) link.
 */
export function detectVideoSource(link: string | URL): Exclude<UrlSource, 'upload'> {
  const url = typeof link === 'string' ? parseVideoLink(link) : link;
  const platform = PLATFORMS.find(({ domains }) =>
    domains.some((domain) => hostMatches(url.hostname, domain)),
  );
  if (platform?.source === 'google_drive' || isGoogleDocsDriveFile(url)) return 'google_drive';
  return platform?.source ?? 'direct';
}

// Old Drive share links live on docs.google.com (`/uc?id=` downloads, `/file/d/<id>`).
function isGoogleDocsDriveFile(url: URL): boolean {
  return hostMatches(url.hostname, 'docs.google.com') && /^\/(uc|file\/)/.test(url.pathname);
}

/**
 * The form of a link we store and fetch: scheme added, host lower-cased, and for YouTube the
 * playlist position dropped (YouTube links lose the list and index parameters), so the
 * same video from a playlist is the same link.
 */
export function normalizeVideoUrl(link: string): string {
  const url = parseVideoLink(link);
  if (detectVideoSource(url) === 'youtube') {
    url.searchParams.delete('list');
    url.searchParams.delete('index');
  }
  return url.toString();
}

/** The YouTube rule alone: drop `list` and `index` from a YouTube link; others are unchanged. */
export function stripYoutubePlaylistParams(link: string): string {
  const url = parseVideoLink(link);
  if (detectVideoSource(url) !== 'youtube') return link;
  url.searchParams.delete('list');
  url.searchParams.delete('index');
  return url.toString();
}

/** The 11-character YouTube id of watch, short, shorts, embed and live links. */
export function youtubeVideoId(link: string): string | undefined {
  let url: URL;
  try {
    url = parseVideoLink(link);
  } catch {
    // Not a video link: no id to take from it.
    return undefined;
  }
  if (detectVideoSource(url) !== 'youtube') return undefined;
  const segments = url.pathname.split('/').filter(Boolean);
  const candidate = hostMatches(url.hostname, 'youtu.be')
    ? segments[0]
    : (url.searchParams.get('v') ??
      (['shorts', 'embed', 'live', 'v', 'e'].includes(segments[0] ?? '')
        ? segments[1]
        : undefined));
  return candidate && /^[\w-]{11}$/.test(candidate) ? candidate : undefined;
}

/**
 * A Dailymotion link must start with the http or https Dailymotion domain, and its last
 * path segment is the video id. Returns undefined for anything else.
 */
export function dailymotionVideoId(link: string): string | undefined {
  if (!/^https?:\/\/(www\.)?dailymotion\.com\//i.test(link.trim())) return undefined;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    // Not a URL: no id to take from it.
    return undefined;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const id = segments[segments.length - 1];
  return id ? decodeURIComponent(id) : undefined;
}

/** Whether a Dailymotion link follows the rule above. */
export function isValidDailymotionLink(link: string): boolean {
  return dailymotionVideoId(link) !== undefined;
}

/** A source is hosted on the CDN when its address starts with the CDN's domain. */
export function isCdnSource(link: string, cdnBase: string = DEFAULT_CDN_BASE): boolean {
  return cdnBase !== '' && link.trim().startsWith(cdnBase);
}

/** A CDN source is a clip (not the full video) when its path lacks `full_video`. */
export function isCdnClip(link: string, cdnBase: string = DEFAULT_CDN_BASE): boolean {
  if (!isCdnSource(link, cdnBase)) return false;
  let path: string;
  try {
    path = new URL(link.trim()).pathname;
  } catch {
    // Not a URL: so not a link of this kind.
    return false;
  }
  return !path.split('/').includes('full_video');
}
