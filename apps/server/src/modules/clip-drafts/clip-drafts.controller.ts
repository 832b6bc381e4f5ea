import { ClipDraft, ClipDraftBody, ERROR_CODES, MAX_DRAFT_BODY_BYTES } from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ClipDraftsService } from './clip-drafts.service.js';

const IdQuery = z.object({ id: z.string().min(1).max(100) });

/** The clip editor's saved settings of a moment. */
export function registerClipDraftRoutes(app: App, drafts: ClipDraftsService) {
  const route = jsonRoutes(app, ['moments']);

  route.user(
    'get',
    '/api/highlight_moment/draft',
    {
      summary: "The clip editor's saved settings of a moment; null while none were saved",
      querystring: IdQuery,
      data: ClipDraft.nullable(),
    },
    ({ userId, query }) => drafts.get(userId, query.id),
  );

  route.user(
    'put',
    '/api/highlight_moment/draft',
    {
      summary: "Save the clip editor's settings of a moment (the editor saves as the user edits)",
      querystring: IdQuery,
      body: ClipDraftBody,
      data: ClipDraft,
      errors: [ERROR_CODES.UNKNOWN_TEMPLATE, ERROR_CODES.UNKNOWN_FONT, ERROR_CODES.INVALID_RANGE],
      bodyLimit: MAX_DRAFT_BODY_BYTES,
    },
    ({ userId, query, body }) => drafts.save(userId, query.id, body.settings),
  );
}
