import { createReadStream } from 'node:fs';
import path from 'node:path';
import {
  CAPTION_ERRORS,
  CaptionPreview,
  CaptionFontFamily,
  CaptionPreviewBody,
  CaptionTemplate,
  ClipFraming,
  ClipFramingBody,
  ERROR_CODES,
  SubtitleQuery,
  TranslationSupport,
} from '@moments/contract';
import { captionFontFiles } from '@moments/media/captions';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { fileReply } from '../../http/openapi.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ExportsService } from '../exports/exports.service.js';
import type { CaptionsService } from './captions.service.js';
import { CAPTION_FONTS_ROUTE } from './clip-captions.js';

const FONT_FILE_NAME = /^[A-Za-z0-9_-]+\.(ttf|otf|ttc)$/;
const FONT_TYPES: Record<string, string> = {
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.ttc': 'font/collection',
};
const SUBTITLE_TYPES = ['application/x-subrip', 'text/vtt', 'text/x-ssa'];
const FontParam = z.object({ file: z.string().max(120) });

/**
 * The clip editor's and the caption result page's calls (/api/captions). Documented beside the
 * export calls (tag `exports`): the editor uses both. The framing preview is the exporter's own
 * planner, so that route asks the exports service.
 */
export function registerCaptionRoutes(
  app: App,
  deps: { captions: CaptionsService; exports: ExportsService },
) {
  const tags = ['exports'];
  const { captions, exports } = deps;
  const route = jsonRoutes(app, tags);

  route.user(
    'post',
    '/api/captions/preview',
    {
      summary: 'The ASS captions an export with these options would burn in (for JASSUB)',
      // Shortened pauses are measured on the audio (ffmpeg silencedetect).
      errors: [...CAPTION_ERRORS, ERROR_CODES.FFMPEG_FAILED],
      body: CaptionPreviewBody,
      data: CaptionPreview,
    },
    ({ userId, body }) => captions.preview(userId, body),
  );

  route.user(
    'post',
    '/api/captions/framing',
    {
      summary:
        'The framing (crop path or blurred fit) an export with these options would use; takes seconds the first time (face analysis)',
      errors: [
        ERROR_CODES.TOO_MANY_RUNNING,
        ERROR_CODES.NOT_A_VIDEO,
        ERROR_CODES.FFMPEG_FAILED,
        ERROR_CODES.TIMEOUT,
        ...CAPTION_ERRORS,
      ],
      body: ClipFramingBody,
      data: ClipFraming,
    },
    ({ userId, body, reply }) => {
      // The editor drops a request when the trim or the shape changes: stop waiting for it then.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('client went away'));
      });
      return exports.framing(userId, body, gone.signal);
    },
  );

  app.get(
    '/api/captions/subtitles',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.BAD_REQUEST, ...CAPTION_ERRORS] },
      schema: {
        tags,
        summary:
          "A caption task's captions as SRT, WebVTT or ASS: source language, translation, or both",
        querystring: SubtitleQuery,
        response: { 200: fileReply('The subtitle file', SUBTITLE_TYPES) },
      },
    },
    async (request, reply) =>
      sendSubtitles(reply, await captions.subtitles(currentUser(request).id, request.query)),
  );

  route.user(
    'get',
    '/api/captions/media',
    {
      summary: "A signed address of a task's stored video (null once it is gone)",
      querystring: z.object({ task_id: z.string().min(1).max(100) }),
      data: z.object({ url: z.string().nullable() }),
    },
    ({ userId, query }) => captions.taskMediaUrl(userId, query.task_id),
  );

  route.open(
    'get',
    '/api/captions/languages',
    {
      summary: 'Caption translation targets, and which this install can translate into',
      data: TranslationSupport,
    },
    () => captions.translationSupport(),
  );

  route.open(
    'get',
    '/api/captions/templates',
    { summary: 'The caption templates', data: z.array(CaptionTemplate) },
    () => captions.templates(),
  );

  route.open(
    'get',
    CAPTION_FONTS_ROUTE,
    {
      summary: 'The caption font families installed here and the scripts each draws',
      data: z.array(CaptionFontFamily),
    },
    () => captions.fonts(),
  );

  app.get(
    `${CAPTION_FONTS_ROUTE}/:file`,
    {
      schema: {
        tags,
        summary: 'A caption font file (only the fonts captions use)',
        params: FontParam,
        response: { 200: fileReply('The font file', Object.values(FONT_TYPES)) },
      },
    },
    sendFont,
  );
}

/** A subtitle file as a download, its name safe in the header and exact in `filename*`. */
function sendSubtitles(
  reply: FastifyReply,
  file: { body: string; contentType: string; fileName: string },
) {
  return reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .send(file.body);
}

async function sendFont(request: FastifyRequest, reply: FastifyReply) {
  const name = (request.params as z.infer<typeof FontParam>).file;
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
}
