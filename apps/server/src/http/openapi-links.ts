/** `METHOD /path` of an operation, as the document names it. */
type OperationName = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /${string}`;

/**
 * Where a link puts the created value: a parameter (`query.id`, `path.id`), the whole request
 * body, or a request body built around it.
 */
type Target = `${'query' | 'path'}.${string}` | 'body' | ((value: string) => object);

/**
 * What an operation creates, and the operations that take it (OpenAPI links): clients see how the
 * calls fit together, and the fuzzer's stateful phase follows them in real flows (upload, start
 * a task, read its moments, summary and transcript, export a moment, share it, delete it).
 */
const LINKS: Record<OperationName, { from: string; to: Record<OperationName, Target> }> = {
  'POST /api/upload': {
    // The reply is the body that starts a task on the uploaded file.
    from: '$response.body#/data',
    to: {
      'POST /api/highlight_moment/task/start': 'body',
      'POST /api/tool-task/v2/caption/start': 'body',
    },
  },
  ...Object.fromEntries(
    (
      ['POST /api/highlight_moment/task/start', 'POST /api/tool-task/v2/caption/start'] as const
    ).map((start) => [
      start,
      {
        from: '$response.body#/data/id',
        to: {
          'GET /api/highlight_moment/task': 'query.id',
          'GET /api/highlight_moment/task/transcript': 'query.id',
          'POST /api/highlight_moment/task/retry': 'query.id',
          'GET /api/highlight_moment/list': 'query.task_id',
          'GET /api/summary': 'query.task_id',
          'POST /api/summary/refresh': 'query.task_id',
          'POST /api/summary/share': 'query.task_id',
          'DELETE /api/summary/share': 'query.task_id',
          'GET /api/captions/subtitles': 'query.task_id',
          'GET /api/captions/media': 'query.task_id',
          'GET /api/highlight_moment/task/query_history': 'query.root_task_id',
          'GET /api/highlight_moment/task/question_quote': 'query.root_task_id',
          'POST /api/note': (id: string) => ({ from: 'summary', id }),
          'POST /api/job': (task_id: string) => ({ type: 'ANIMATED_CAPTION_EXPORT', task_id }),
          'DELETE /api/highlight_moment/task': 'query.id',
        },
      },
    ]),
  ),
  'GET /api/highlight_moment/list': {
    from: '$response.body#/data/0/id',
    to: {
      'GET /api/highlight_moment': 'query.id',
      'POST /api/highlight_moment/favorite': 'query.id',
      'POST /api/highlight_moment/unfavorite': 'query.id',
      'POST /api/highlight_moment/layout': 'query.id',
      'POST /api/highlight_moment/feedback/{id}': 'path.id',
      'DELETE /api/highlight_moment/feedback/{id}': 'path.id',
      'POST /api/highlight_moment/share': 'query.id',
      'DELETE /api/highlight_moment/share': 'query.id',
      'PUT /api/highlight_moment/refresh': 'query.id',
      'POST /api/note': (id: string) => ({ from: 'moment', id }),
      'POST /api/job': (moment_id: string) => ({ type: 'VIRAL_MOMENT_EXPORT', moment_id }),
      'POST /api/highlight_moment/clipped/delete': 'query.id',
    },
  },
  'POST /api/note': {
    from: '$response.body#/data/id',
    to: {
      'GET /api/note': 'query.id',
      'PUT /api/note': 'query.id',
      'POST /api/note/share': 'query.id',
      'DELETE /api/note/share': 'query.id',
      'DELETE /api/note': 'query.id',
    },
  },
  'POST /api/job': {
    from: '$response.body#/data/job_id',
    to: {
      'GET /api/job/{id}': 'path.id',
      'POST /api/job/share': 'query.id',
      'DELETE /api/job/share': 'query.id',
      'DELETE /api/job/{id}': 'path.id',
    },
  },
  ...Object.fromEntries(
    (
      [
        'POST /api/note/share',
        'POST /api/job/share',
        'POST /api/highlight_moment/share',
        'POST /api/summary/share',
      ] as const
    ).map((share) => [
      share,
      { from: '$response.body#/data/share_id', to: { 'GET /api/share/{id}': 'path.id' } },
    ]),
  ),
};

export type Operations = Record<string, Record<string, { responses?: Record<string, object> }>>;

/** `POST /api/job/{id}` -> `PostApiJobId`: a link's name. */
const linkName = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1).toLowerCase()}`)
    .join('');

/**
 * The links of `LINKS` on each creating operation's 200 reply. A name that is no operation
 * throws, so a renamed route cannot leave a dead link behind.
 */
export function addLinks(paths: Operations): void {
  const find = (name: string) => {
    const [method = '', route = ''] = name.split(' ');
    const operation = paths[route]?.[method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI links: no operation ${name}`);
    const pointer = route.replaceAll('~', '~0').replaceAll('/', '~1');
    return { operation, ref: `#/paths/${pointer}/${method.toLowerCase()}` };
  };
  for (const [source, { from, to }] of Object.entries(LINKS)) {
    const reply = find(source).operation.responses?.['200'];
    if (!reply) throw new Error(`OpenAPI links: ${source} has no 200 reply`);
    const links = Object.entries(to).map(([target, where]) => {
      const value =
        where === 'body'
          ? { requestBody: from }
          : typeof where === 'function'
            ? { requestBody: where(from) }
            : { parameters: { [where]: from } };
      return [linkName(target), { operationRef: find(target).ref, ...value }];
    });
    Object.assign(reply, { links: Object.fromEntries(links) });
  }
}
