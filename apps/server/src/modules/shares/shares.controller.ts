import fs from 'node:fs/promises';
import path from 'node:path';
import { SharedPage, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { PreviewTags, SharesService } from './shares.service.js';

const escapeAttr = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SPA's index.html with Open Graph and Twitter tags, so a pasted /s/ link previews. */
export function injectPreviewTags(indexHtml: string, tags: PreviewTags, url: string): string {
  const meta = [
    ['og:type', 'article'],
    ['og:site_name', 'Moments'],
    ['og:title', tags.title],
    ['og:description', tags.description],
    ['og:url', url],
    ...(tags.image ? [['og:image', tags.image]] : []),
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

/** Public share pages: the JSON they render from, and the served HTML with preview tags. */
export function registerShareRoutes(app: App, shares: SharesService, webDistDir: string) {
  app.get(
    '/api/share/:id',
    {
      schema: {
        tags: ['shares'],
        summary: 'A shared summary, or with note=1 a shared note (anonymous, read-only)',
        params: z.object({ id: z.string().max(100) }),
        querystring: z.object({ note: z.string().max(5).optional() }),
        response: { 200: envelopeOf(SharedPage) },
      },
    },
    async (request) => ok(await shares.page(request.params.id, request.query.note === '1')),
  );

  const indexFile = path.join(webDistDir, 'index.html');
  app.get(
    '/s/:id',
    {
      schema: {
        hide: true,
        params: z.object({ id: z.string().max(200) }),
        querystring: z.object({ note: z.string().max(5).optional() }),
      },
    },
    async (request, reply) => {
      const html = await fs.readFile(indexFile, 'utf8').catch(() => undefined);
      if (html === undefined)
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet: run `npm run build`.');
      const tags = await shares.preview(request.params.id, request.query.note === '1');
      reply.type('text/html').header('cache-control', 'no-cache');
      // A revoked or unknown link answers 404; the app still renders its "not found" page.
      if (!tags) return reply.status(404).send(html);
      const origin = `${request.protocol}://${request.host}`;
      // Previews need absolute addresses.
      const image = tags.image?.startsWith('/') ? `${origin}${tags.image}` : tags.image;
      return reply.send(
        injectPreviewTags(
          html,
          { ...tags, ...(image ? { image } : {}) },
          `${origin}${request.url}`,
        ),
      );
    },
  );
}
