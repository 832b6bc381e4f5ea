import {
  ERROR_CODES,
  ExportBatch,
  ExportBatchCreateBody,
  ExportBatchCreated,
  PublishKit,
  chargeErrors,
  CAPTION_ERRORS,
} from '@moments/contract';
import { currentUser, requireUser } from '../../http/auth.js';
import { fileReply } from '../../http/openapi.js';
import { IdInput, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { Storage } from '../../storage/index.js';
import type { ExportBatchesService } from './export-batches.service.js';

/** Export all (batches of clips, their ZIP) and the publish kit of a finished clip. */
export function registerExportBatchRoutes(
  app: App,
  deps: { batches: ExportBatchesService; storage: Storage },
) {
  const { batches } = deps;
  const route = jsonRoutes(app, ['exports']);
  const tags = ['exports'];

  route.user(
    'post',
    '/api/job/batch',
    {
      summary:
        "Export all: render a task's top_n best moments (or the moments moment_ids names) with one set of options, each clip an export job",
      errors: [
        ...chargeErrors('CANVAS_EXPORT'),
        ERROR_CODES.TOO_MANY_RUNNING,
        ERROR_CODES.NOT_A_VIDEO,
        ...CAPTION_ERRORS,
      ],
      body: ExportBatchCreateBody,
      data: ExportBatchCreated,
      idempotent: true,
    },
    ({ userId, body }) => batches.create(userId, body),
  );

  route.userById(
    'get',
    '/api/job/batch/:id',
    "An export batch: each clip's status and progress, and its ZIP once a clip is done",
    ExportBatch,
    (userId, id) => batches.get(userId, id),
  );

  app.get(
    '/api/job/batch/:id/zip',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.CONFLICT] },
      schema: {
        tags,
        summary:
          "The batch's finished clips as one ZIP, streamed: each MP4, a cover-N.jpg per clip and publish.json (every clip's file name and texts per platform)",
        params: IdInput,
        response: { 200: fileReply('The ZIP', ['application/zip']) },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await batches.zip(currentUser(request).id, request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName.replace(/"/g, '')}"`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  route.user(
    'get',
    '/api/job/:id/publish_kit',
    {
      summary:
        "A finished clip's publish kit: title, description, hashtags and caption per platform, fitted to its limits, and its cover",
      errors: [ERROR_CODES.CONFLICT],
      params: IdInput,
      data: PublishKit,
    },
    ({ userId, params }) => batches.publishKit(userId, params.id),
  );

  app.get(
    '/api/job/:id/cover',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.CONFLICT] },
      schema: {
        tags,
        summary: "A finished clip's cover: its best frame with its hook title drawn",
        params: IdInput,
        response: { 200: fileReply('The cover', ['image/jpeg']) },
      },
    },
    async (request, reply) => {
      const key = await batches.coverKey(currentUser(request).id, request.params.id);
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'private, max-age=3600')
        .send(await deps.storage.createReadStream(key));
    },
  );
}
