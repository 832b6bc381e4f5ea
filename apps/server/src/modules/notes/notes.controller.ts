import { CreateNoteBody, Note, UpdateNoteBody, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { NotesService } from './notes.service.js';

const IdQuery = z.object({ id: z.string().max(100) });
const ShareReply = envelopeOf(z.object({ share_id: z.string(), path: z.string() }));

/** issue 10 notes: owner-only CRUD, search, share and unshare. */
export function registerNoteRoutes(app: App, notes: NotesService) {
  const tags = ['notes'];
  const preHandler = requireUser;
  app.get(
    '/api/note/list',
    {
      preHandler,
      schema: {
        tags,
        summary: "The user's notes, newest first; q searches title and text",
        querystring: z.object({ q: z.string().max(200).optional() }),
        response: { 200: envelopeOf(z.array(Note)) },
      },
    },
    async (request) => ok(await notes.list(currentUser(request).id, request.query.q)),
  );
  app.post(
    '/api/note',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Create a note: blank, from a summary (task id) or from a moment',
        body: CreateNoteBody,
        response: { 200: envelopeOf(Note) },
      },
    },
    async (request) => ok(await notes.create(currentUser(request).id, request.body)),
  );
  app.get(
    '/api/note',
    {
      preHandler,
      schema: {
        tags,
        summary: 'One note (owner only)',
        querystring: IdQuery,
        response: { 200: envelopeOf(Note) },
      },
    },
    async (request) => ok(await notes.get(currentUser(request).id, request.query.id)),
  );
  app.put(
    '/api/note',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Save title and/or content (autosave)',
        querystring: IdQuery,
        body: UpdateNoteBody,
        response: { 200: envelopeOf(Note) },
      },
    },
    async (request) =>
      ok(await notes.update(currentUser(request).id, request.query.id, request.body)),
  );
  app.delete(
    '/api/note',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Delete a note',
        querystring: IdQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await notes.delete(currentUser(request).id, request.query.id);
      return ok(null);
    },
  );
  app.post(
    '/api/note/share',
    {
      preHandler,
      schema: {
        tags,
        summary: 'An unlisted public link /s/{id}?note=1',
        querystring: IdQuery,
        response: { 200: ShareReply },
      },
    },
    async (request) => ok(await notes.share(currentUser(request).id, request.query.id)),
  );
  app.delete(
    '/api/note/share',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Revoke the public link',
        querystring: IdQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await notes.unshare(currentUser(request).id, request.query.id);
      return ok(null);
    },
  );
}
