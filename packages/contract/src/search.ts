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
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchVideosReply = z.object({
  /** Pass back as `search_id` with the same query for the next page; opaque. */
  search_id: z.string(),
  items: z.array(SearchHit),
  has_more: z.boolean(),
});
export type SearchVideosReply = z.infer<typeof SearchVideosReply>;
