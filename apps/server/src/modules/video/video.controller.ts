import { GetVideoMetaBody, LINK_ERRORS, VideoMeta, VideoMetaInput } from '@moments/contract';
import { detectVideoSource, normalizeVideoUrl } from '@moments/domain/links';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { VideoService } from './video.service.js';

const ParsedInput = z.object({
  input_type: z.enum(['URL', 'KEYWORD']),
  url: z.string().nullable(),
  video_platform: z.string().nullable(),
});

/** Link parsing and metadata, under the link rules. */
export function registerVideoRoutes(app: App, video: VideoService) {
  /** Stops the metadata fetch when the client cancels (typing again aborts it). */
  const abortOnClose = (raw: { on(event: 'close', fn: () => void): void }) => {
    const controller = new AbortController();
    raw.on('close', () => controller.abort());
    return controller.signal;
  };

  const route = jsonRoutes(app, ['video']);
  route.open(
    'post',
    '/api/parse_url',
    {
      summary: 'Tell a link (and its platform) from search keywords',
      querystring: z.object({ url: z.string().max(4096) }),
      data: ParsedInput,
    },
    ({ query }) => {
      try {
        const url = normalizeVideoUrl(query.url);
        return { input_type: 'URL' as const, url, video_platform: detectVideoSource(url) };
      } catch {
        // Not a link we take: the input is search keywords.
        return { input_type: 'KEYWORD' as const, url: null, video_platform: null };
      }
    },
  );

  route.user(
    'post',
    '/api/p/v2/get_video_meta',
    {
      summary: 'Video metadata of a link, without downloading it',
      body: GetVideoMetaBody,
      data: VideoMeta,
      errors: [...LINK_ERRORS],
    },
    ({ userId, body, request }) =>
      video.metadataFor(userId, body.video_url, abortOnClose(request.raw)),
  );

  route.user(
    'post',
    '/api/video/parse',
    {
      summary: 'The video parse call: body {url}, reply data is the video metadata',
      body: VideoMetaInput,
      data: VideoMeta,
      errors: [...LINK_ERRORS],
    },
    ({ userId, body, request }) => video.metadataFor(userId, body.url, abortOnClose(request.raw)),
  );
}
