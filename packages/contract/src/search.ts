import { z } from 'zod';
import { VideoMeta } from './schemas.js';

/**
 * The home search (`POST /api/p/v1/searchVideos`, body in SearchVideosBody). The spec names
 * the call and its body only; the reply is ours: one page of hits and an opaque cursor.
 */

/** A snippet is one matching sentence, cut to this many characters. */
export const SEARCH_SNIPPET_MAX = 200;

export const SEARCH_HIT_KINDS = ['task', 'moment'] as const;
export type SearchHitKind = (typeof SEARCH_HIT_KINDS)[number];

/** Moments listed under one result, at most: the rest are on the video's moments page. */
export const SEARCH_MOMENTS_PER_HIT = 4;

/** Another moment of the same video that matched, under the result of its video. */
export const SearchHitMoment = z.object({
  moment_id: z.string(),
  title: z.string(),
  snippet: z.string().max(SEARCH_SNIPPET_MAX),
  start_ms: z.number().int(),
  score: z.number(),
});
export type SearchHitMoment = z.infer<typeof SearchHitMoment>;

/**
 * One result per video: its best match (the video's own passage or title, or a moment), and the
 * video's other matching moments, best first, never one twice.
 */
export const SearchHit = z.object({
  /** `task`: one of the requester's own videos; `moment`: a shared moment or one of their own. */
  kind: z.enum(SEARCH_HIT_KINDS),
  video: VideoMeta,
  task_id: z.string(),
  moment_id: z.string().nullable(),
  title: z.string(),
  /** The sentence that matched (or the start of the text when only the title matched). */
  snippet: z.string().max(SEARCH_SNIPPET_MAX),
  /** Where the snippet is heard in the video, when known. */
  start_ms: z.number().int().nullable(),
  /** The moment's score 0..100; null for videos. */
  score: z.number().nullable(),
  /** The video's other matching moments, best first (not the hit's own moment). */
  moments: z.array(SearchHitMoment).max(SEARCH_MOMENTS_PER_HIT),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchVideosReply = z.object({
  /** Pass back as `search_id` with the same query for the next page; opaque. */
  search_id: z.string(),
  items: z.array(SearchHit),
  has_more: z.boolean(),
});
export type SearchVideosReply = z.infer<typeof SearchVideosReply>;
