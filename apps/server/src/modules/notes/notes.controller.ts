import { CreateNoteBody, Note, UpdateNoteBody } from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { NotesService } from './notes.service.js';

const IdQuery = z.object({ id: z.string().min(1).max(100) });
const ShareLink = z.object({ share_id: z.string(), path: z.string() });

/** Notes: owner-only CRUD, search, share and unshare. */
export function registerNoteRoutes(app: App, notes: NotesService) {
  const route = jsonRoutes(app, ['notes']);
  route.user(
    'get',
    '/api/note/list',
    {
      summary: "The user's notes, newest first; q searches title and text",
      querystring: z.object({ q: z.string().max(200).optional() }),
      data: z.array(Note),
    },
    ({ userId, query }) => notes.list(userId, query.q),
  );
  route.user(
    'post',
    '/api/note',
    {
      summary: 'Create a note: blank, from a summary (task id) or from a moment',
      body: CreateNoteBody,
      data: Note,
    },
    ({ userId, body }) => notes.create(userId, body),
  );
  route.user(
    'get',
    '/api/note',
    { summary: 'One note (owner only)', querystring: IdQuery, data: Note },
    ({ userId, query }) => notes.get(userId, query.id),
  );
  route.user(
    'put',
    '/api/note',
    {
      summary: 'Save title and/or content (autosave)',
      querystring: IdQuery,
      body: UpdateNoteBody,
      data: Note,
    },
    ({ userId, query, body }) => notes.update(userId, query.id, body),
  );
  route.user(
    'delete',
    '/api/note',
    { summary: 'Delete a note', querystring: IdQuery, data: z.null() },
    ({ userId, query }) => notes.delete(userId, query.id),
  );
  route.user(
    'post',
    '/api/note/share',
    { summary: 'An unlisted public link /s/{id}?note=1', querystring: IdQuery, data: ShareLink },
    ({ userId, query }) => notes.share(userId, query.id),
  );
  route.user(
    'delete',
    '/api/note/share',
    { summary: 'Revoke the public link', querystring: IdQuery, data: z.null() },
    ({ userId, query }) => notes.unshare(userId, query.id),
  );
}
