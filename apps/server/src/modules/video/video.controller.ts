import { GetVideoMetaBody, VideoMeta, VideoMetaInput, envelopeOf } from '@moments/contract';
import { detectVideoSource, normalizeVideoUrl } from '@moments/domain/links';
import { fetchVideoMetadata, type VideoMetadata } from '@moments/media/ingest';
import { z } from 'zod';
import { requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';

const toVideoMeta = (url: string, m: VideoMetadata): VideoMeta => ({
  url,
  title: m.title,
  thumbnail: m.thumbnail,
  duration: m.durationMs == null ? null : m.durationMs / 1000,
  video_platform: m.videoPlatform,
  channel_title: m.channelTitle,
  view_count: m.viewCount,
  published_at: m.publishedAt,
});

const ParsedInput = z.object({
  input_type: z.enum(['URL', 'KEYWORD']),
  url: z.string().nullable(),
  video_platform: z.string().nullable(),
});

/** Link parsing and metadata (spec §7 "Video and moments", §5 link rules). */
export function registerVideoRoutes(app: App, options: { allowHosts: string[] }) {
  const tags = ['video'];
  const metadataFor = async (link: string, signal: AbortSignal) => {
    const url = normalizeVideoUrl(link);
    return toVideoMeta(
      url,
      await fetchVideoMetadata(url, { allowHosts: options.allowHosts, signal, timeoutMs: 60_000 }),
    );
  };
  /** Stops the metadata fetch when the client cancels (spec §7: "optional cancel signal"). */
  const abortOnClose = (raw: { on(event: 'close', fn: () => void): void }) => {
    const controller = new AbortController();
    raw.on('close', () => controller.abort());
    return controller.signal;
  };

  app.post(
    '/api/parse_url',
    {
      schema: {
        tags,
        summary: 'Tell a link (and its platform) from search keywords',
        querystring: z.object({ url: z.string().max(4096) }),
        response: { 200: envelopeOf(ParsedInput) },
      },
    },
    async (request) => {
      try {
        const url = normalizeVideoUrl(request.query.url);
        return ok({ input_type: 'URL' as const, url, video_platform: detectVideoSource(url) });
      } catch {
        return ok({ input_type: 'KEYWORD' as const, url: null, video_platform: null });
      }
    },
  );

  app.post(
    '/api/p/v2/get_video_meta',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Video metadata of a link, without downloading it',
        body: GetVideoMetaBody,
        response: { 200: envelopeOf(VideoMeta) },
      },
    },
    async (request) => ok(await metadataFor(request.body.video_url, abortOnClose(request.raw))),
  );

  app.post(
    '/api/video/parse',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The video parse call: body {url}, reply data is the video metadata',
        body: VideoMetaInput,
        response: { 200: envelopeOf(VideoMeta) },
      },
    },
    async (request) => ok(await metadataFor(request.body.url, abortOnClose(request.raw))),
  );
}
