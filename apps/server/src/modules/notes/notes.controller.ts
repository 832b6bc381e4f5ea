import { CreateNoteBody, Note, UpdateNoteBody } from '@moments/contract';
import { z } from 'zod';
import { IdInput, ShareLink, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { NotesService } from './notes.service.js';

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
  route.userById('get', '/api/note', 'One note (owner only)', Note, (userId, id) =>
    notes.get(userId, id),
  );
  route.user(
    'put',
    '/api/note',
    {
      summary: 'Save title and/or content (autosave)',
      querystring: IdInput,
      body: UpdateNoteBody,
      data: Note,
    },
    ({ userId, query, body }) => notes.update(userId, query.id, body),
  );
  route.userById('delete', '/api/note', 'Delete a note', z.null(), (userId, id) =>
    notes.delete(userId, id),
  );
  route.userById(
    'post',
    '/api/note/share',
    'An unlisted public link /s/{id}?note=1',
    ShareLink,
    (userId, id) => notes.share(userId, id),
  );
  route.userById('delete', '/api/note/share', 'Revoke the public link', z.null(), (userId, id) =>
    notes.unshare(userId, id),
  );
}
