import type { Platform } from '@moments/contract';

/**
 * The texts a clip is posted with, fitted to each platform's own limits, so a creator pastes them
 * as they are: a title, a description and hashtags, and the caption (description then hashtags)
 * for the platforms whose post is a single text box.
 */

/** The platforms a publish kit is written for (a generic clip gets all three). */
export const PUBLISH_PLATFORMS = ['tiktok', 'instagram_reels', 'youtube_shorts'] as const;
export type PublishPlatform = (typeof PUBLISH_PLATFORMS)[number];

export interface PublishLimits {
  /** The longest title, in characters (TikTok and Reels show it as the caption's first line). */
  titleMax: number;
  /** The longest description or caption box, in characters, hashtags included. */
  captionMax: number;
  /** The most hashtags worth posting: past this a platform ignores or penalises them. */
  hashtagsMax: number;
  /** The post has no title field: the title is the caption's first line (TikTok, Reels). */
  titleInCaption: boolean;
  /** A tag the platform files the post under (YouTube's Shorts shelf). */
  requiredTag: string | null;
}

/**
 * The platforms' published limits: TikTok's caption holds 2,200 characters (hashtags included;
 * three to five tags is its own advice); an Instagram caption 2,200 characters and at most 30
 * hashtags, of which the first 125 characters show before "more"; a YouTube title 100 characters,
 * a description 5,000, and with more than 15 hashtags YouTube ignores them all.
 */
export const PUBLISH_LIMITS: Record<PublishPlatform, PublishLimits> = {
  tiktok: {
    titleMax: 100,
    captionMax: 2200,
    hashtagsMax: 5,
    titleInCaption: true,
    requiredTag: null,
  },
  instagram_reels: {
    titleMax: 125,
    captionMax: 2200,
    hashtagsMax: 30,
    titleInCaption: true,
    requiredTag: null,
  },
  youtube_shorts: {
    titleMax: 100,
    captionMax: 5000,
    hashtagsMax: 15,
    titleInCaption: false,
    requiredTag: 'Shorts',
  },
};

/** A hashtag is kept this long at most: longer ones read as noise and are cut by some apps. */
const HASHTAG_MAX = 40;

export interface PublishSource {
  title: string;
  /** The moment's summary; the transcript stands in when it is empty. */
  description: string;
  hashtags: readonly string[];
  /** The words spoken in the clip, for a description when the moment has none. */
  transcript?: string;
}

export interface PlatformTexts {
  platform: PublishPlatform;
  title: string;
  description: string;
  /** Each written with its '#'. */
  hashtags: string[];
  /** What goes in the post's text box: the title line, the description and the hashtags, fitted. */
  caption: string;
}

/** Characters as a person (and the platforms' counters) count them: code points, not UTF-16 units. */
export function textLength(text: string): number {
  return Array.from(text).length;
}

/**
 * `text` cut to at most `max` characters at a word boundary, with an ellipsis when anything was
 * cut (a word longer than the whole limit is cut inside).
 */
export function fitText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (textLength(clean) <= max) return clean;
  if (max <= 1) return Array.from(clean).slice(0, max).join('');
  const chars = Array.from(clean);
  const room = chars.slice(0, max - 1).join('');
  // A word that ends right at the limit stays whole.
  const endsAtWord = chars[max - 1] === ' ';
  const lastSpace = room.lastIndexOf(' ');
  const cut = endsAtWord || lastSpace <= room.length / 2 ? room : room.slice(0, lastSpace);
  return `${cut.replace(/[\s,;:.–-]+$/u, '')}…`;
}

/**
 * A hashtag as platforms accept it: letters, digits and underscores only (a phrase joined in
 * CamelCase), no leading '#'; null when nothing is left.
 */
export function normaliseHashtag(raw: string): string | null {
  const words = raw
    .normalize('NFKC')
    .replace(/^#+/u, '')
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
  if (!words.length) return null;
  const tag =
    words.length === 1
      ? words[0]!
      : words.map((word) => word.charAt(0).toLocaleUpperCase() + word.slice(1)).join('');
  const fitted = Array.from(tag).slice(0, HASHTAG_MAX).join('');
  // A tag of digits alone is not a hashtag on any of the platforms.
  return /^\p{N}+$/u.test(fitted) ? null : fitted;
}

/** The moment's hashtags, normalised, without repeats (case-insensitive), the platform's own first. */
export function platformHashtags(platform: PublishPlatform, hashtags: readonly string[]): string[] {
  const limits = PUBLISH_LIMITS[platform];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of [...(limits.requiredTag ? [limits.requiredTag] : []), ...hashtags]) {
    const tag = normaliseHashtag(raw);
    if (!tag || seen.has(tag.toLocaleLowerCase())) continue;
    seen.add(tag.toLocaleLowerCase());
    tags.push(`#${tag}`);
    if (tags.length === limits.hashtagsMax) break;
  }
  return tags;
}

/** The texts for one platform, each inside its limits (the caption included, whole). */
export function publishTexts(platform: PublishPlatform, source: PublishSource): PlatformTexts {
  const limits = PUBLISH_LIMITS[platform];
  const title = fitText(source.title || 'Untitled clip', limits.titleMax);
  let hashtags = platformHashtags(platform, source.hashtags);
  const body = source.description.trim() || source.transcript?.trim() || '';
  const tagLine = () => hashtags.join(' ');
  // The hashtags share the box with the text: they keep their room, the description gives way.
  const reserved = () => (hashtags.length ? textLength(tagLine()) + 2 : 0);
  while (hashtags.length && reserved() > limits.captionMax / 2) hashtags = hashtags.slice(0, -1);
  const headRoom = limits.titleInCaption ? textLength(title) + 2 : 0;
  const description = fitText(body, Math.max(0, limits.captionMax - reserved() - headRoom));
  const parts = limits.titleInCaption ? [title, description, tagLine()] : [description, tagLine()];
  const caption = parts.filter(Boolean).join('\n\n');
  return { platform, title, description, hashtags, caption };
}

/** The texts for every platform, the one the clip was made for first. */
export function publishKitTexts(
  source: PublishSource,
  platform: Platform = 'generic',
): PlatformTexts[] {
  const platforms = [...PUBLISH_PLATFORMS].sort(
    (a, b) => Number(b === platform) - Number(a === platform),
  );
  return platforms.map((name) => publishTexts(name, source));
}
