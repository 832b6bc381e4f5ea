import fs from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SharedPage, ShareResult } from '@moments/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { rangedFileReplies } from '../../http/openapi.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { sendStoredFile } from '../../storage/file-routes.js';
import type { Storage } from '../../storage/index.js';
import type { ClipSharesService } from './clip-shares.service.js';
import type { PreviewTags, SharedKind, SharesService } from './shares.service.js';

const escapeAttr = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The SPA's index.html with Open Graph and Twitter tags, so a pasted link previews; `tags` carry
 * absolute addresses. A clip or moment previews as a video (og:video, its duration, its poster).
 */
export function injectPreviewTags(indexHtml: string, tags: PreviewTags, url: string): string {
  const video = tags.video;
  const meta = [
    ['og:type', video ? 'video.other' : 'article'],
    ['og:site_name', 'Moments'],
    ['og:title', tags.title],
    ['og:description', tags.description],
    ['og:url', url],
    ...(tags.image ? [['og:image', tags.image]] : []),
    ...(tags.image && tags.imageSize
      ? [
          ['og:image:width', String(tags.imageSize.width)],
          ['og:image:height', String(tags.imageSize.height)],
        ]
      : []),
    ...(video
      ? [
          ['og:video', video.url],
          ['og:video:secure_url', video.url],
          ['og:video:type', 'video/mp4'],
          ...(video.width && video.height
            ? [
                ['og:video:width', String(video.width)],
                ['og:video:height', String(video.height)],
              ]
            : []),
          ...(video.durationSec !== undefined
            ? [['video:duration', String(video.durationSec)]]
            : []),
        ]
      : []),
    ['twitter:card', tags.image ? 'summary_large_image' : 'summary'],
  ]
    .map(
      ([property, content]) => `<meta property="${property}" content="${escapeAttr(content!)}" />`,
    )
    .concat(
      `<meta name="description" content="${escapeAttr(tags.description)}" />`,
      '<meta name="robots" content="noindex" />',
    )
    .join('\n    ');
  const withTitle = indexHtml.replace(
    /<title>[^<]*<\/title>/,
    `<title>${escapeAttr(tags.title)} · Moments</title>`,
  );
  return withTitle.replace('</head>', `    ${meta}\n  </head>`);
}

const kindOf = (query: { note?: string; clip?: string }): SharedKind =>
  query.clip === '1' ? 'clip' : query.note === '1' ? 'note' : 'summary';

const KindQuery = z.object({
  note: z.string().max(5).optional(),
  clip: z.string().max(5).optional(),
});

interface ShareRouteDeps {
  shares: SharesService;
  clips: ClipSharesService;
  storage: Storage;
  webDistDir: string;
  /** Where preview links point (PUBLIC_URL or the listen address), never the request's Host. */
  publicUrl: string;
}

/** Public share pages: the JSON they render from, the served HTML with preview tags, clip media. */
export function registerShareRoutes(app: App, deps: ShareRouteDeps) {
  registerSharedPageApi(app, deps);
  registerClipSharing(jsonRoutes(app, ['shares', 'exports']), deps.clips);
  registerPreviewPages(app, deps);
}

/** What a share page renders from, and a shared clip's video. */
function registerSharedPageApi(app: App, deps: ShareRouteDeps) {
  const { shares, clips } = deps;
  jsonRoutes(app, ['shares']).open(
    'get',
    '/api/share/:id',
    {
      summary:
        'A shared summary, with note=1 a shared note, with clip=1 a shared clip (anonymous, read-only)',
      params: z.object({ id: z.string().min(1).max(100) }),
      querystring: KindQuery,
      data: SharedPage,
    },
    ({ params, query }) => shares.page(params.id, kindOf(query)),
  );

  app.get(
    '/api/share/:id/clip.mp4',
    {
      schema: {
        tags: ['shares'],
        summary: "A shared clip's MP4 (byte ranges; 404 once the share is revoked)",
        params: z.object({ id: z.string().min(1).max(100) }),
        response: rangedFileReplies('The clip as MP4', 'video/mp4'),
      },
    },
    async (request, reply) => {
      const clip = await clips.shared(request.params.id);
      // Checked on every request, so a revoked link stops playing at once; other sites' players
      // (a pasted link's og:video) may load it.
      reply.header('cache-control', 'private, no-cache');
      reply.header('cross-origin-resource-policy', 'cross-origin');
      return sendStoredFile(request, reply, deps.storage, clip.fileKey);
    },
  );
}

/** Sharing a finished export as a page of its own, and taking it back. */
function registerClipSharing(route: ReturnType<typeof jsonRoutes>, clips: ClipSharesService) {
  const JobIdQuery = z.object({ id: z.string().max(100) });
  route.user(
    'post',
    '/api/job/share',
    {
      summary: 'Share a finished export as an unlisted page /s/{share_id}?clip=1',
      querystring: JobIdQuery,
      data: ShareResult,
      // An export still rendering (or failed) cannot be shared.
      errors: [ERROR_CODES.CONFLICT],
    },
    ({ userId, query }) => clips.share(userId, query.id),
  );
  route.user(
    'delete',
    '/api/job/share',
    {
      summary: 'Stop sharing an export: its page and its MP4 answer 404',
      querystring: JobIdQuery,
      data: z.null(),
    },
    ({ userId, query }) => clips.unshare(userId, query.id),
  );
}

/** The app's pages for shared links, with Open Graph tags so a pasted link previews. */
function registerPreviewPages(app: App, deps: ShareRouteDeps) {
  const { shares } = deps;
  app.get(
    '/s/:id',
    {
      schema: {
        hide: true,
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: KindQuery,
      },
    },
    // A revoked or unknown link answers 404; the app still renders its "not found" page.
    async (request, reply) =>
      servePage(
        deps,
        request,
        reply,
        await shares.preview(request.params.id, kindOf(request.query)),
        404,
      ),
  );

  // A shared moment's page previews as its span; any other moment page is the plain app (its
  // owner may still open it), so it answers 200 without tags.
  for (const route of ['/home/moment/:id', '/moment/:id']) {
    app.get(
      route,
      { schema: { hide: true, params: z.object({ id: z.string().min(1).max(200) }) } },
      async (request, reply) =>
        servePage(deps, request, reply, await shares.momentPreview(request.params.id), 200),
    );
  }
}

/** Serves the app with preview tags; `tags` undefined answers `missingStatus`. */
async function servePage(
  deps: Pick<ShareRouteDeps, 'webDistDir' | 'publicUrl'>,
  request: FastifyRequest,
  reply: FastifyReply,
  tags: PreviewTags | undefined,
  missingStatus: 200 | 404,
) {
  const indexFile = path.join(deps.webDistDir, 'index.html');
  // A missing index.html means the web app is not built: answered below, nothing to log.
  const html = await fs.readFile(indexFile, 'utf8').catch(() => undefined);
  if (html === undefined)
    return reply
      .status(503)
      .type('text/plain')
      .send('The web app is not built yet: run `npm run build`.');
  reply.type('text/html').header('cache-control', 'no-cache');
  if (!tags) return reply.status(missingStatus).send(html);
  const origin = deps.publicUrl.replace(/\/+$/, '');
  // Previews need absolute addresses.
  const absolute = (address: string) => (address.startsWith('/') ? `${origin}${address}` : address);
  return reply.send(
    injectPreviewTags(
      html,
      {
        ...tags,
        ...(tags.image ? { image: absolute(tags.image) } : {}),
        ...(tags.video ? { video: { ...tags.video, url: absolute(tags.video.url) } } : {}),
      },
      `${origin}${request.url}`,
    ),
  );
}
