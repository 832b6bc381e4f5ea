import { ClipDraft, ClipDraftBody, ERROR_CODES, MAX_DRAFT_BODY_BYTES } from '@moments/contract';
import { IdInput, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ClipDraftsService } from './clip-drafts.service.js';

/** The clip editor's saved settings of a moment. */
export function registerClipDraftRoutes(app: App, drafts: ClipDraftsService) {
  const route = jsonRoutes(app, ['moments']);

  route.userById(
    'get',
    '/api/highlight_moment/draft',
    "The clip editor's saved settings of a moment; null while none were saved",
    ClipDraft.nullable(),
    (userId, id) => drafts.get(userId, id),
  );

  route.user(
    'put',
    '/api/highlight_moment/draft',
    {
      summary: "Save the clip editor's settings of a moment (the editor saves as the user edits)",
      querystring: IdInput,
      body: ClipDraftBody,
      data: ClipDraft,
      errors: [ERROR_CODES.UNKNOWN_TEMPLATE, ERROR_CODES.UNKNOWN_FONT, ERROR_CODES.INVALID_RANGE],
      bodyLimit: MAX_DRAFT_BODY_BYTES,
    },
    ({ userId, query, body }) => drafts.save(userId, query.id, body.settings),
  );
}
