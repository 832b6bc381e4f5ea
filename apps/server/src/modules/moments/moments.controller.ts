import {
  FeedbackBody,
  MOMENT_LIST_TYPES,
  Moment,
  MomentView,
  ShareMomentBody,
  ShareResult,
  envelopeOf,
} from '@moments/contract';
import type { Storage } from '../../storage/index.js';
import { sendStoredFile } from '../../storage/file-routes.js';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { MomentsService } from './moments.service.js';

const IdQuery = z.object({ id: z.string().max(100) });
const IdParam = z.object({ id: z.string().max(100) });

/** spec §7 "Video and moments": the moment calls. */
export function registerMomentRoutes(
  app: App,
  moments: MomentsService,
  deps: { storage: Storage },
) {
  const tags = ['moments'];

  app.get(
    '/highlight_moment/list/default',
    {
      schema: {
        tags,
        summary: 'Shared moments of one list type, best first (home page, anonymous)',
        querystring: z.object({ type: z.enum(MOMENT_LIST_TYPES).default('video_snippet') }),
        response: { 200: envelopeOf(z.array(MomentView)) },
      },
    },
    async (request) => ok(await moments.defaultList(request.query.type)),
  );

  app.get(
    '/api/highlight_moment',
    {
      schema: {
        tags,
        summary: 'One moment: its owner always, anyone once it is shared',
        querystring: IdQuery,
        response: { 200: envelopeOf(MomentView) },
      },
    },
    async (request) => ok(await moments.view(request.user?.id ?? null, request.query.id)),
  );

  app.get(
    '/api/highlight_moment/list',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A task's moments, best first; without task_id, all of the user's moments",
        querystring: z.object({ task_id: z.string().max(100).optional() }),
        response: { 200: envelopeOf(z.array(Moment)) },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      return ok(
        request.query.task_id
          ? await moments.listForTask(userId, request.query.task_id)
          : await moments.all(userId),
      );
    },
  );

  app.post(
    '/api/highlight_moment/feedback/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Rate a moment: THUMB_UP, or THUMB_DOWN with content and reason',
        params: IdParam,
        body: FeedbackBody,
        response: { 200: envelopeOf(Moment) },
      },
    },
    async (request) =>
      ok(await moments.feedback(currentUser(request).id, request.params.id, request.body)),
  );

  app.delete(
    '/api/highlight_moment/feedback/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Undo the rating',
        params: IdParam,
        response: { 200: envelopeOf(Moment) },
      },
    },
    async (request) => ok(await moments.clearFeedback(currentUser(request).id, request.params.id)),
  );

  for (const [path, favorite] of [
    ['/api/highlight_moment/favorite', true],
    ['/api/highlight_moment/unfavorite', false],
  ] as const) {
    app.post(
      path,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: favorite ? 'Favourite a moment' : 'Remove a moment from favourites',
          querystring: IdQuery,
          response: { 200: envelopeOf(Moment) },
        },
      },
      async (request) =>
        ok(await moments.setFavorite(currentUser(request).id, request.query.id, favorite)),
    );
  }

  app.get(
    '/api/highlight_moment/favorite/list',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Favourite moments',
        response: { 200: envelopeOf(z.array(Moment)) },
      },
    },
    async (request) => ok(await moments.favorites(currentUser(request).id)),
  );

  app.get(
    '/api/highlight_moment/clipped/list',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Moments that were exported as clips',
        response: { 200: envelopeOf(z.array(Moment)) },
      },
    },
    async (request) => ok(await moments.clipped(currentUser(request).id)),
  );

  app.post(
    '/api/highlight_moment/clipped/delete',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Remove a moment from the clipped list',
        querystring: IdQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await moments.unclip(currentUser(request).id, request.query.id);
      return ok(null);
    },
  );

  app.post(
    '/api/highlight_moment/share',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Make a moment viewable by link; answers the public path',
        querystring: IdQuery,
        // spec §7: "optional body"; { publish: true } also lists it on the home shelf.
        body: z.unknown().optional(),
        response: { 200: envelopeOf(ShareResult) },
      },
    },
    async (request) => {
      const body = ShareMomentBody.safeParse(request.body ?? undefined);
      const publish = body.success ? (body.data?.publish ?? false) : false;
      return ok(await moments.share(currentUser(request).id, request.query.id, { publish }));
    },
  );

  app.delete(
    '/api/highlight_moment/share',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Unshare: revoke the link (and any home listing)',
        querystring: IdQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await moments.unshare(currentUser(request).id, request.query.id);
      return ok(null);
    },
  );

  app.get(
    '/api/highlight_moment/shared_media/:shareId',
    {
      schema: {
        tags,
        summary: "A shared moment's span as video (only the span; gone once unshared)",
        params: z.object({ shareId: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const { key } = await moments.sharedSpan(request.params.shareId);
      // Checked on every request, so a revoked share stops playing at once.
      reply.header('cache-control', 'private, no-cache');
      return sendStoredFile(request, reply, deps.storage, key);
    },
  );

  app.put(
    '/api/highlight_moment/refresh',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Re-score the moment's span",
        querystring: IdQuery,
        response: { 200: envelopeOf(Moment) },
      },
    },
    async (request) => ok(await moments.refresh(currentUser(request).id, request.query.id)),
  );
}
