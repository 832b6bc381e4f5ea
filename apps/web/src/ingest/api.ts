import type { InputType, UrlSource, VideoMeta } from '@moments/contract';
import { api } from '../api/client';

export interface ParsedInput {
  input_type: InputType;
  url: string | null;
  video_platform: UrlSource | null;
}

/** POST /api/parse_url tells a link from keywords; its error messages are suppressed. */
export function parseInput(text: string, signal?: AbortSignal): Promise<ParsedInput> {
  return api.post<ParsedInput>('/api/parse_url', undefined, {
    query: { url: text },
    suppressErrorDialog: true,
    signal,
  });
}

/**
 * POST /api/p/v2/get_video_meta with a cancel signal: typing again aborts the request,
 * which also stops the server's metadata fetch. Failures are shown next to the input.
 */
export function fetchVideoMeta(videoUrl: string, signal?: AbortSignal): Promise<VideoMeta> {
  return api.post<VideoMeta>(
    '/api/p/v2/get_video_meta',
    { video_url: videoUrl },
    { suppressErrorDialog: true, signal },
  );
}
