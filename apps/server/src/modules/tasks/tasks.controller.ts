import {
  Task,
  TaskRetryParams,
  TaskStartParams,
  Transcript,
  VideoMeta,
  envelopeOf,
} from '@moments/contract';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { TasksService } from './tasks.service.js';

const IdQuery = z.object({ id: z.string().max(100) });
const PageQuery = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});

/** spec §7 "Tasks". */
export function registerTaskRoutes(app: App, tasks: TasksService) {
  const tags = ['tasks'];

  app.post(
    '/api/highlight_moment/task/start',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Start a moment task: viral moments, or the moments that answer `query`',
        querystring: TaskStartParams,
        body: VideoMeta,
        response: { 200: envelopeOf(Task) },
      },
    },
    async (request) =>
      ok(await tasks.start(currentUser(request).id, request.body, request.query, undefined)),
  );

  app.post(
    '/api/tool-task/v2/caption/start',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Start an animated-caption task (optionally translated)',
        querystring: TaskStartParams.omit({ act_as: true, query: true }),
        body: VideoMeta,
        response: { 200: envelopeOf(Task) },
      },
    },
    async (request) =>
      ok(await tasks.start(currentUser(request).id, request.body, request.query, 'caption')),
  );

  app.post(
    '/api/highlight_moment/task/retry',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Run a finished or failed task again',
        querystring: TaskRetryParams,
        response: { 200: envelopeOf(Task) },
      },
    },
    async (request) => ok(await tasks.retry(currentUser(request).id, request.query)),
  );

  app.get(
    '/api/highlight_moment/task/list',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The user's tasks, newest first",
        querystring: PageQuery,
        response: { 200: envelopeOf(z.array(Task)) },
      },
    },
    async (request) =>
      ok(
        await tasks.list(currentUser(request).id, request.query.page_num, request.query.page_size),
      ),
  );

  app.get(
    '/api/highlight_moment/task',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One task',
        querystring: IdQuery,
        response: { 200: envelopeOf(Task) },
      },
    },
    async (request) => ok(await tasks.get(currentUser(request).id, request.query.id)),
  );

  app.delete(
    '/api/highlight_moment/task',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete a task, stopping it if it runs',
        querystring: IdQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await tasks.delete(currentUser(request).id, request.query.id);
      return ok(null);
    },
  );

  app.get(
    '/api/highlight_moment/task/query_history',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The root task and the query tasks chained to it',
        querystring: z.object({ root_task_id: z.string().max(100) }),
        response: { 200: envelopeOf(z.array(Task)) },
      },
    },
    async (request) => ok(await tasks.history(currentUser(request).id, request.query.root_task_id)),
  );

  app.get(
    '/api/highlight_moment/task/transcript',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Word-timed transcript (milliseconds) of a finished task',
        querystring: IdQuery,
        response: { 200: envelopeOf(Transcript) },
      },
    },
    async (request) => ok(await tasks.transcript(currentUser(request).id, request.query.id)),
  );
}
