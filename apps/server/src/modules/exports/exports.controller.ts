import { createReadStream } from 'node:fs';
import path from 'node:path';
import {
  CaptionPreview,
  CaptionPreviewBody,
  CaptionTemplate,
  ClipFraming,
  ClipFramingBody,
  Job,
  JobCreateBody,
  JobListQuery,
  SubtitleQuery,
  TranslationSupport,
  envelopeOf,
} from '@moments/contract';
import { captionFontFiles } from '@moments/media/captions';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import type { App } from '../../http/types.js';
import { CAPTION_FONTS_ROUTE } from './clip-captions.js';
import type { ExportsService } from './exports.service.js';

const IdParam = z.object({ id: z.string().max(100) });
const FONT_FILE_NAME = /^[A-Za-z0-9_-]+\.(ttf|otf|ttc)$/;
const FONT_TYPES: Record<string, string> = {
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.ttc': 'font/collection',
};

/** spec §7 "Notifications and jobs" (the job calls), and the clip editor's caption calls. */
export function registerExportRoutes(app: App, exports: ExportsService) {
  const tags = ['exports'];

  app.post(
    '/api/job',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Start an export: a moment (moment_id) or a caption task video (task_id)',
        body: JobCreateBody,
        response: { 200: envelopeOf(Job) },
      },
    },
    async (request) => ok(await exports.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/job/list',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The user's export jobs, newest first",
        querystring: JobListQuery,
        response: { 200: envelopeOf(z.array(Job)) },
      },
    },
    async (request) => ok(await exports.list(currentUser(request).id, request.query)),
  );

  app.get(
    '/api/job/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One export job; a DONE job carries a signed file_url of its MP4',
        params: IdParam,
        response: { 200: envelopeOf(Job) },
      },
    },
    async (request) => ok(await exports.get(currentUser(request).id, request.params.id)),
  );

  app.delete(
    '/api/job/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete an export, stopping it if it runs',
        params: IdParam,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await exports.delete(currentUser(request).id, request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/api/captions/preview',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The ASS captions an export with these options would burn in (for JASSUB)',
        body: CaptionPreviewBody,
        response: { 200: envelopeOf(CaptionPreview) },
      },
    },
    async (request) => ok(await exports.preview(currentUser(request).id, request.body)),
  );

  app.post(
    '/api/captions/framing',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'The framing (crop path or blurred fit) an export with these options would use; takes seconds the first time (face analysis)',
        body: ClipFramingBody,
        response: { 200: envelopeOf(ClipFraming) },
      },
    },
    async (request, reply) => {
      // The editor drops a request when the trim or the shape changes: stop waiting for it then.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('client went away'));
      });
      return ok(await exports.framing(currentUser(request).id, request.body, gone.signal));
    },
  );

  app.get(
    '/api/captions/subtitles',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "A caption task's captions as SRT, WebVTT or ASS: source language, translation, or both",
        querystring: SubtitleQuery,
      },
    },
    async (request, reply) => {
      const file = await exports.subtitles(currentUser(request).id, request.query);
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .send(file.body);
    },
  );

  app.get(
    '/api/captions/media',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A signed address of a task's stored video (null once it is gone)",
        querystring: z.object({ task_id: z.string().max(100) }),
        response: { 200: envelopeOf(z.object({ url: z.string().nullable() })) },
      },
    },
    async (request) =>
      ok(await exports.taskMediaUrl(currentUser(request).id, request.query.task_id)),
  );

  app.get(
    '/api/captions/languages',
    {
      schema: {
        tags,
        summary: 'Caption translation targets, and which this install can translate into',
        response: { 200: envelopeOf(TranslationSupport) },
      },
    },
    async () => ok(exports.translationSupport()),
  );

  app.get(
    '/api/captions/templates',
    {
      schema: {
        tags,
        summary: 'The caption templates',
        response: { 200: envelopeOf(z.array(CaptionTemplate)) },
      },
    },
    async () => ok(exports.templates()),
  );

  app.get(
    `${CAPTION_FONTS_ROUTE}/:file`,
    {
      schema: {
        tags,
        summary: 'A caption font file (only the fonts captions use)',
        params: z.object({ file: z.string().max(120) }),
      },
    },
    async (request, reply) => {
      const name = request.params.file;
      // Only the caption fonts, by exact file name: nothing else on disk can be named here.
      const font = FONT_FILE_NAME.test(name)
        ? captionFontFiles().find((entry) => path.basename(entry.file) === name)
        : undefined;
      if (!font) throw notFound('Font');
      return reply
        .header('content-type', FONT_TYPES[path.extname(name).toLowerCase()] ?? 'font/ttf')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('access-control-allow-origin', '*')
        .send(createReadStream(font.file));
    },
  );
}
