import {
  CAPTION_ERRORS,
  ClipSettings,
  ERROR_CODES,
  Job,
  JobCreateBody,
  JobListQuery,
  chargeErrors,
} from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ExportsService } from './exports.service.js';

/** The export job calls (the editor's caption calls: captions module). */
export function registerExportRoutes(app: App, exports: ExportsService) {
  const route = jsonRoutes(app, ['exports']);

  route.user(
    'post',
    '/api/job',
    {
      summary: 'Start an export: a moment (moment_id) or a caption task video (task_id)',
      errors: [
        // A clip uses one of the plan's exports; a caption task's whole video costs credits.
        ...chargeErrors('CANVAS_EXPORT', 'CREDIT'),
        ERROR_CODES.TOO_MANY_RUNNING,
        ERROR_CODES.NOT_A_VIDEO,
        ...CAPTION_ERRORS,
      ],
      body: JobCreateBody,
      data: Job,
      idempotent: true,
    },
    ({ userId, body }) => exports.create(userId, body),
  );

  route.user(
    'get',
    '/api/job/list',
    {
      summary: "The user's export jobs, newest first",
      querystring: JobListQuery,
      data: z.array(Job),
    },
    ({ userId, query }) => exports.list(userId, query),
  );

  route.userById(
    'get',
    '/api/job/:id',
    'One export job; a DONE job carries a signed file_url of its MP4',
    Job,
    (userId, id) => exports.get(userId, id),
  );

  route.userById(
    'get',
    '/api/job/:id/settings',
    'The settings an export was made with, as the clip editor opens them (Edit again); null when the export kept none',
    ClipSettings.nullable(),
    (userId, id) => exports.settings(userId, id),
  );

  route.userById(
    'delete',
    '/api/job/:id',
    'Delete an export, stopping it if it runs',
    z.null(),
    (userId, id) => exports.delete(userId, id),
  );
}
