import {
  FeedbackBody,
  MOMENT_LIST_TYPES,
  Moment,
  MomentLayoutBody,
  MomentView,
  ShareMomentBody,
  ShareResult,
} from '@moments/contract';
import type { Storage } from '../../storage/index.js';
import { sendStoredFile } from '../../storage/file-routes.js';
import { z } from 'zod';
import { rangedFileReplies } from '../../http/openapi.js';
import { IdInput, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { MomentsService } from './moments.service.js';

/** The moment calls. */
export function registerMomentRoutes(
  app: App,
  moments: MomentsService,
  deps: { storage: Storage },
) {
  const tags = ['moments'];
  const route = jsonRoutes(app, tags);
  registerMomentReads(route, moments);
  registerClipAndShareRoutes(app, route, moments, deps.storage);
}

type Routes = ReturnType<typeof jsonRoutes>;

/** Reading moments, rating and favouriting them. */
function registerMomentReads(route: Routes, moments: MomentsService) {
  route.open(
    'get',
    '/highlight_moment/list/default',
    {
      summary: 'Shared moments of one list type, best first (home page, anonymous)',
      querystring: z.object({ type: z.enum(MOMENT_LIST_TYPES).default('video_snippet') }),
      data: z.array(MomentView),
    },
    ({ query }) => moments.defaultList(query.type),
  );

  route.open(
    'get',
    '/api/highlight_moment',
    {
      summary: 'One moment: its owner always, anyone once it is shared',
      querystring: IdInput,
      data: MomentView,
    },
    ({ userId, query }) => moments.view(userId, query.id),
  );

  route.user(
    'get',
    '/api/highlight_moment/list',
    {
      summary: "A task's moments, best first; without task_id, all of the user's moments",
      querystring: z.object({ task_id: z.string().min(1).max(100).optional() }),
      data: z.array(Moment),
    },
    ({ userId, query }) =>
      query.task_id ? moments.listForTask(userId, query.task_id) : moments.all(userId),
  );

  route.user(
    'post',
    '/api/highlight_moment/feedback/:id',
    {
      summary: 'Rate a moment: THUMB_UP, or THUMB_DOWN with content and reason',
      params: IdInput,
      body: FeedbackBody,
      data: Moment,
    },
    ({ userId, params, body }) => moments.feedback(userId, params.id, body),
  );

  route.userById(
    'delete',
    '/api/highlight_moment/feedback/:id',
    'Undo the rating',
    Moment,
    (userId, id) => moments.clearFeedback(userId, id),
  );

  for (const [path, favorite] of [
    ['/api/highlight_moment/favorite', true],
    ['/api/highlight_moment/unfavorite', false],
  ] as const) {
    route.user(
      'post',
      path,
      {
        summary: favorite ? 'Favourite a moment' : 'Remove a moment from favourites',
        querystring: IdInput,
        data: Moment,
      },
      ({ userId, query }) => moments.setFavorite(userId, query.id, favorite),
    );
  }

  route.user(
    'get',
    '/api/highlight_moment/favorite/list',
    { summary: 'Favourite moments', data: z.array(Moment) },
    ({ userId }) => moments.favorites(userId),
  );

  route.user(
    'get',
    '/api/highlight_moment/clipped/list',
    { summary: 'Moments that were exported as clips', data: z.array(Moment) },
    ({ userId }) => moments.clipped(userId),
  );
}

/** The clip's layout, the clipped list, sharing by link and re-scoring. */
function registerClipAndShareRoutes(
  app: App,
  route: Routes,
  moments: MomentsService,
  storage: Storage,
) {
  route.user(
    'post',
    '/api/highlight_moment/layout',
    {
      summary: "Keep a framing layout with the clip (the studio's choice)",
      querystring: IdInput,
      body: MomentLayoutBody,
      data: Moment,
    },
    ({ userId, query, body }) => moments.setLayout(userId, query.id, body.layout),
  );

  route.userById(
    'post',
    '/api/highlight_moment/clipped/delete',
    'Remove a moment from the clipped list',
    z.null(),
    (userId, id) => moments.unclip(userId, id),
  );

  route.user(
    'post',
    '/api/highlight_moment/share',
    {
      summary: 'Make a moment viewable by link; answers the public path',
      querystring: IdInput,
      // The body is optional; { publish: true } also lists it on the home shelf.
      body: z.unknown().optional(),
      data: ShareResult,
    },
    ({ userId, query, body }) => {
      const parsed = ShareMomentBody.safeParse(body ?? undefined);
      const publish = parsed.success ? (parsed.data?.publish ?? false) : false;
      return moments.share(userId, query.id, { publish });
    },
  );

  route.userById(
    'delete',
    '/api/highlight_moment/share',
    'Unshare: revoke the link (and any home listing)',
    z.null(),
    (userId, id) => moments.unshare(userId, id),
  );

  app.get(
    '/api/highlight_moment/shared_media/:shareId',
    {
      schema: {
        tags: ['moments'],
        summary: "A shared moment's span as video (only the span; gone once unshared)",
        params: z.object({ shareId: z.string().min(1).max(100) }),
        response: rangedFileReplies('The span as MP4', 'video/mp4'),
      },
    },
    async (request, reply) => {
      const { key } = await moments.sharedSpan(request.params.shareId);
      // Checked on every request, so a revoked share stops playing at once.
      reply.header('cache-control', 'private, no-cache');
      return sendStoredFile(request, reply, storage, key);
    },
  );

  route.userById(
    'put',
    '/api/highlight_moment/refresh',
    "Re-score the moment's span",
    Moment,
    (userId, id) => moments.refresh(userId, id),
  );
}
