import { ERROR_CODES } from '@moments/contract';
import { z } from 'zod';
import { AppError, notFound } from '../../http/errors.js';
import { rangedFileReplies } from '../../http/openapi.js';
import type { App } from '../../http/types.js';
import { sendStoredFile } from '../../storage/file-routes.js';
import type { Storage } from '../../storage/index.js';
import type { PictureTokens } from './picture-tokens.js';
import type { ThumbnailsService } from './thumbnails.service.js';

/** `GET /api/thumbnail/{kind}/{id}`: a stored picture, to its owner or to visitors of a share. */
export function registerThumbnailRoutes(
  app: App,
  deps: { thumbnails: ThumbnailsService; storage: Storage; pictureTokens: PictureTokens },
) {
  app.get(
    '/api/thumbnail/:kind/:id',
    {
      // An expired mail picture address (?sig=) is refused as such.
      config: { errors: [ERROR_CODES.FORBIDDEN] },
      schema: {
        tags: ['thumbnails'],
        summary:
          "A video's, moment's or export's picture (JPEG): its owner's, or anyone's once shared",
        params: z.object({
          // task, moment, job or preview (THUMBNAIL_KINDS); any other answers 404 like a missing one.
          kind: z.string().min(1).max(10),
          id: z.string().min(1).max(100),
        }),
        querystring: z.object({
          // A mail's picture address: loads without a session until it expires.
          sig: z.string().max(100).optional(),
        }),
        response: rangedFileReplies('The picture as JPEG', 'image/jpeg'),
      },
    },
    async (request, reply) => {
      const { kind, id } = request.params;
      if (request.query.sig !== undefined) {
        const check = deps.pictureTokens.check(kind, id, request.query.sig);
        if (check === 'invalid') throw notFound('Thumbnail');
        if (check === 'expired') {
          throw new AppError(ERROR_CODES.FORBIDDEN, 403, 'This picture link has expired');
        }
        const key = await deps.thumbnails.storedKey(kind, id);
        // Webmail shows it from its own origin; the address is unguessable and time-limited.
        reply.header('cache-control', 'private, max-age=86400');
        reply.header('cross-origin-resource-policy', 'cross-origin');
        return sendStoredFile(request, reply, deps.storage, key);
      }
      const { key, shared } = await deps.thumbnails.resolve(
        request.params.kind,
        request.params.id,
        request.user?.id ?? null,
      );
      // A shared picture is checked again within minutes of a revoke; an owner's is theirs.
      reply.header('cache-control', shared ? 'public, max-age=300' : 'private, max-age=3600');
      // Link previews of other sites load it (og:image); nothing else of ours is embeddable.
      if (shared) reply.header('cross-origin-resource-policy', 'cross-origin');
      return sendStoredFile(request, reply, deps.storage, key);
    },
  );
}
