import {
  ERROR_CODES,
  LINK_ERRORS,
  QuestionQuote,
  Task,
  TaskPartial,
  TaskRetryParams,
  TaskStartParams,
  Transcript,
  VideoMeta,
  chargeErrors,
} from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { TasksService } from './tasks.service.js';

const RootTaskQuery = z.object({ root_task_id: z.string().min(1).max(100) });
const PageQuery = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});

/** Starting a run: a free slot, a translation this install can make, credits and plan length. */
const TASK_START_ERRORS = [
  ERROR_CODES.TOO_MANY_RUNNING,
  ERROR_CODES.TRANSLATION_UNAVAILABLE,
  ...chargeErrors('CREDIT'),
  ERROR_CODES.VIDEO_TOO_LONG,
];

type Routes = ReturnType<typeof jsonRoutes>;

/** The task calls: start, list, read, retry and delete. */
export function registerTaskRoutes(app: App, tasks: TasksService) {
  const route = jsonRoutes(app, ['tasks']);
  registerTaskStarts(route, tasks);
  registerTaskReads(route, tasks);
}

/** Starting, retrying: the routes that spend credits. */
function registerTaskStarts(route: Routes, tasks: TasksService) {
  route.user(
    'post',
    '/api/highlight_moment/task/start',
    {
      summary: 'Start a moment task: viral moments, or the moments that answer `query`',
      querystring: TaskStartParams,
      body: VideoMeta,
      data: Task,
      errors: [...TASK_START_ERRORS, ...LINK_ERRORS],
      idempotent: true,
    },
    ({ userId, body, query }) => tasks.start(userId, body, query, undefined),
  );

  route.user(
    'post',
    '/api/tool-task/v2/caption/start',
    {
      summary: 'Start an animated-caption task (optionally translated)',
      querystring: TaskStartParams.omit({ act_as: true, query: true }),
      body: VideoMeta,
      data: Task,
      errors: [...TASK_START_ERRORS, ...LINK_ERRORS],
      idempotent: true,
    },
    ({ userId, body, query }) => tasks.start(userId, body, query, 'caption'),
  );

  route.user(
    'post',
    '/api/highlight_moment/task/retry',
    {
      summary: 'Run a finished or failed task again',
      querystring: TaskRetryParams,
      data: Task,
      errors: [ERROR_CODES.TASK_NOT_RETRYABLE, ...TASK_START_ERRORS],
      idempotent: true,
    },
    ({ userId, query }) => tasks.retry(userId, query),
  );
}

/** Listing, reading and deleting tasks, their query history, quotes and transcripts. */
function registerTaskReads(route: Routes, tasks: TasksService) {
  route.user(
    'get',
    '/api/highlight_moment/task/list',
    { summary: "The user's tasks, newest first", querystring: PageQuery, data: z.array(Task) },
    ({ userId, query }) => tasks.list(userId, query.page_num, query.page_size),
  );

  route.userById('get', '/api/highlight_moment/task', 'One task', Task, (userId, id) =>
    tasks.get(userId, id),
  );

  route.userById(
    'delete',
    '/api/highlight_moment/task',
    'Delete a task, stopping it if it runs',
    z.null(),
    (userId, id) => tasks.delete(userId, id),
  );

  route.user(
    'get',
    '/api/highlight_moment/task/query_history',
    {
      summary: 'The root task and the query tasks chained to it',
      querystring: RootTaskQuery,
      data: z.array(Task),
    },
    ({ userId, query }) => tasks.history(userId, query.root_task_id),
  );

  route.user(
    'get',
    '/api/highlight_moment/task/question_quote',
    {
      summary:
        "What a question on this task's video costs (only the question when it is transcribed)",
      querystring: RootTaskQuery,
      data: QuestionQuote,
    },
    ({ userId, query }) => tasks.questionQuote(userId, query.root_task_id),
  );

  route.userById(
    'get',
    '/api/highlight_moment/task/partial',
    'What a task still transcribing has heard so far, with its provisional moments (null before the first part)',
    TaskPartial.nullable(),
    (userId, id) => tasks.partial(userId, id),
  );

  route.userById(
    'get',
    '/api/highlight_moment/task/transcript',
    'Word-timed transcript (milliseconds) of a finished task',
    Transcript,
    (userId, id) => tasks.transcript(userId, id),
  );
}
