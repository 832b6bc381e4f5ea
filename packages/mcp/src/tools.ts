import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  MCP_TOOLS,
  exportTypeOf,
  type ExportClipInput,
  type McpToolName,
  type StartTaskInput,
  type UrlSource,
} from '@moments/contract';
import { MomentsApiError, unwrap, type MomentsClient } from '@moments/client';
import type { z } from 'zod';

export interface MomentsMcpOptions {
  /**
   * The server's address as the agent reaches it: the API answers download links relative to
   * it, and an agent needs them whole.
   */
  publicUrl: string;
  version: string;
}

type Input<Name extends McpToolName> = z.output<(typeof MCP_TOOLS)[Name]['input']>;
type Output<Name extends McpToolName> = z.input<(typeof MCP_TOOLS)[Name]['output']>;

/**
 * An MCP server whose tools are calls of the Moments API through `client`: every rule (who owns
 * what, what a call costs, limits, idempotency, the token's rights) is the API's own, applied
 * where it is applied for every other client, and a refusal reaches the agent with the API's code.
 */
export function createMomentsMcpServer(client: MomentsClient, options: MomentsMcpOptions) {
  const server = new McpServer(
    { name: 'moments', title: 'Moments', version: options.version },
    {
      instructions:
        'Moments turns long videos into short clips. Start a task on an upload or a link (start_task), poll get_task until DONE, read its moments (list_moments), export one (export_clip) and poll get_export for its download_url. Errors carry the API code (NOT_FOUND, BALANCE_NOT_ENOUGH, …).',
    },
  );
  const absolute = (link: string | null) =>
    link === null ? null : new URL(link, withSlash(options.publicUrl)).href;
  const withDownload = <T extends { status: string; file_url: string | null }>(job: T) => ({
    ...job,
    download_url: job.status === 'DONE' ? absolute(job.file_url) : null,
  });

  const tool = <Name extends McpToolName>(
    name: Name,
    run: (input: Input<Name>) => Promise<Output<Name>>,
  ) => {
    const { description, input, output } = MCP_TOOLS[name];
    server.registerTool(
      name,
      { description, inputSchema: input, outputSchema: output },
      // The SDK has parsed the arguments with `input` already.
      (async (args: Input<Name>) => answer(() => run(args))) as never,
    );
  };

  tool('start_task', (input) => startTask(client, input));

  tool('get_task', ({ task_id }) =>
    unwrap(client.GET('/api/highlight_moment/task', { params: { query: { id: task_id } } })),
  );

  tool('list_tasks', async (query) => ({
    tasks: await unwrap(client.GET('/api/highlight_moment/task/list', { params: { query } })),
  }));

  tool('list_moments', async ({ task_id }) => ({
    moments: await unwrap(
      client.GET('/api/highlight_moment/list', { params: { query: { task_id } } }),
    ),
  }));

  tool('search_moments', (body) => unwrap(client.POST('/api/p/v1/searchVideos', { body })));

  tool('export_clip', async (input) => withDownload(await exportClip(client, input)));

  tool('get_export', async ({ export_id }) =>
    withDownload(
      await unwrap(client.GET('/api/job/{id}', { params: { path: { id: export_id } } })),
    ),
  );

  tool('credits', async ({ movements }) =>
    unwrap(
      client.GET('/api/credit/history', {
        params: { query: { page_num: 1, page_size: movements } },
      }),
    ),
  );

  return server;
}

/**
 * An upload's own title, or a link's platform, then the start call. The body holds only what the
 * server does not fill itself (the upload's other facts, a link's after its probe), so a retry
 * with the same idempotency key is the same request.
 */
async function startTask(client: MomentsClient, input: StartTaskInput) {
  const { body, url_source } = input.upload_id
    ? await uploadVideo(client, input.upload_id)
    : await linkVideo(client, input.url ?? '');
  const query = {
    url_source,
    source_lang: input.source_lang,
    clip_length: input.clip_length,
    ...(input.kind === 'question' ? { query: input.query } : {}),
  };
  const headers = idempotencyHeaders(input.idempotency_key);
  return input.kind === 'caption'
    ? unwrap(client.POST('/api/tool-task/v2/caption/start', { params: { query }, body, headers }))
    : unwrap(client.POST('/api/highlight_moment/task/start', { params: { query }, body, headers }));
}

async function uploadVideo(client: MomentsClient, id: string) {
  const video = await unwrap(client.GET('/api/upload/{id}', { params: { path: { id } } }));
  return { body: { url: video.url, title: video.title }, url_source: 'upload' as const };
}

/**
 * A link as the start box reads it: normalised, with its platform. Search words go to the start
 * call as they are, for the API to refuse with its own code.
 */
async function linkVideo(client: MomentsClient, url: string) {
  const parsed = await unwrap(client.POST('/api/parse_url', { params: { query: { url } } }));
  return {
    body: { url: parsed.url ?? url },
    url_source: (parsed.video_platform ?? 'direct') as UrlSource,
  };
}

/** Reads the moment first: its list type decides the export type, as in the clip studio. */
async function exportClip(client: MomentsClient, input: ExportClipInput) {
  const { moment_id, idempotency_key, ...options } = input;
  const moment = await unwrap(
    client.GET('/api/highlight_moment', { params: { query: { id: moment_id } } }),
  );
  return unwrap(
    client.POST('/api/job', {
      body: { type: exportTypeOf(moment.type), moment_id, options },
      headers: idempotencyHeaders(idempotency_key),
    }),
  );
}

const idempotencyHeaders = (key: string | undefined): Record<string, string> =>
  key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {};

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/**
 * A tool's reply: its output as structured content (and as text, for clients that read only
 * text), or a tool error carrying the API's code, status and message, so an agent can tell
 * NOT_FOUND from BALANCE_NOT_ENOUGH and act on it.
 */
async function answer(run: () => Promise<object>): Promise<CallToolResult> {
  try {
    const output = await run();
    return {
      structuredContent: output as Record<string, unknown>,
      content: [{ type: 'text', text: JSON.stringify(output) }],
    };
  } catch (error) {
    if (!(error instanceof MomentsApiError)) throw error;
    const { code, status, message } = error;
    return {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify({ code, status, message }) }],
    };
  }
}
