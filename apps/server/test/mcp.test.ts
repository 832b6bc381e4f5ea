/**
 * The MCP server at /mcp as an agent uses it, through the official SDK's client over Streamable
 * HTTP: a bearer token connects and lists the tools; a task starts on an uploaded video and is
 * charged as on the HTTP API; a finished task's moments are listed, searched and exported, and the
 * export's download link gives the file. Another user's ids answer the API's NOT_FOUND as tool
 * errors, and a missing or wrong token is refused before any tool runs. Also `moments-mcp`, the
 * stdio entry, spawned as a local agent would. Media tools are the fake (no ffmpeg): a task's own
 * run is the slow test's (mcp.slow.test.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMomentsClient, unwrap } from '@moments/client';
import {
  CreditHistory,
  ExportResult,
  MCP_TOOLS,
  MomentList,
  SearchVideosReply,
  Task,
  TaskList,
} from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { openPglite } from './support/databases.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask } from './support/fixtures.js';

const BIN = fileURLToPath(new URL('../../../node_modules/.bin/moments-mcp', import.meta.url));
const WORDS = [
  { text: 'glaciers', startMs: 500, endMs: 900 },
  { text: 'melting', startMs: 1000, endMs: 1400 },
  { text: 'quickly', startMs: 1500, endMs: 1900 },
];

interface Agent {
  token: string;
  userId: string;
  mcp: Client;
}

let t: TestApp;
let media: FakeMediaRepository;
let owner: Agent;
let stranger: Agent;
const clients: Client[] = [];

/** Signs up over HTTP with the typed client, as a script would, and connects an MCP client. */
async function agent(name: string): Promise<Agent> {
  const api = createMomentsClient({ baseUrl: t.url });
  const signed = await unwrap(
    api.POST('/api/auth/signup', {
      body: {
        email: `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`,
        password: 'a sturdy passphrase',
        username: name,
      },
    }),
  );
  return { token: signed.token, userId: signed.user.id, mcp: await connect(signed.token) };
}

async function connect(token: string | undefined): Promise<Client> {
  const mcp = new Client({ name: 'moments-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', t.url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await mcp.connect(transport);
  clients.push(mcp);
  return mcp;
}

async function call(mcp: Client, name: string, args: Record<string, unknown> = {}) {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool's structured output, parsed by its contract schema; fails the test on a tool error. */
async function output<T>(schema: { parse(value: unknown): T }, result: Promise<CallToolResult>) {
  const answered = await result;
  expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
  return schema.parse(answered.structuredContent);
}

/** The API's code a tool error carries. */
async function refusal(result: Promise<CallToolResult>) {
  const answered = await result;
  expect(answered.isError).toBe(true);
  const [first] = answered.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as {
    code: string;
    status: number;
  };
}

async function uploadVideo(token: string): Promise<string> {
  const api = createMomentsClient({ baseUrl: t.url, token });
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.from('a video, as the fake media tools see it')]),
    'talk.mp4',
  );
  const uploaded = await unwrap(
    api.POST('/api/upload', { body: { file: '' }, bodySerializer: () => form }),
  );
  // An upload answers its video meta with its id, the id start_task takes.
  expect(uploaded.url).toBe(`upload://${uploaded.id}`);
  return uploaded.id;
}

let finished: { taskId: string; momentId: string };

beforeAll(async () => {
  media = new FakeMediaRepository();
  // A talk of two and a half minutes: a start is charged by its length at once.
  media.info = { ...media.info, durationMs: 150_000 };
  t = await startTestApp(await openPglite(), {}, { media, workers: true, listen: true });
  owner = await agent('owner');
  stranger = await agent('stranger');
  const video = path.join(t.dataDir, 'finished.mp4');
  await fs.writeFile(video, 'fake source video');
  finished = await seedFinishedTask(t, owner.userId, {
    video,
    title: 'Glaciers in the Alps',
    durationMs: 6000,
    words: WORDS,
    moment: { startMs: 500, endMs: 1900, title: 'Glaciers melting quickly' },
  });
});

afterAll(async () => {
  for (const mcp of clients) await mcp.close();
  await t?.close();
});

describe('the MCP server at /mcp', () => {
  it('lists the tools with the contract schemas', async () => {
    const { tools } = await owner.mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_TOOLS).sort());
    const startTask = tools.find((tool) => tool.name === 'start_task')!;
    expect(Object.keys(startTask.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['upload_id', 'url', 'kind', 'query']),
    );
    expect(startTask.outputSchema?.properties).toHaveProperty('status');
  });

  it('starts a task on an uploaded video, charged as the HTTP API charges it', async () => {
    const uploadId = await uploadVideo(owner.token);
    const task = await output(
      Task,
      call(owner.mcp, 'start_task', { upload_id: uploadId, kind: 'question', query: 'why?' }),
    );
    expect(task).toMatchObject({ kind: 'search', query: 'why?', url_source: 'upload' });
    // Three started minutes and the summary, in credit units, as the start box quotes.
    expect(task.cost_credits).toBeGreaterThan(0);
    const read = await output(Task, call(owner.mcp, 'get_task', { task_id: task.id }));
    expect(read.id).toBe(task.id);
    const { tasks } = await output(TaskList, call(owner.mcp, 'list_tasks'));
    expect(tasks.map((one) => one.id)).toContain(task.id);
    const credits = await output(CreditHistory, call(owner.mcp, 'credits'));
    // The run and the summary, each its own movement: together what the task reports.
    const charged = credits.movements
      .filter((movement) => movement.task_id === task.id)
      .reduce((sum, movement) => sum + movement.amount, 0);
    expect(charged).toBe(-task.cost_credits);
  });

  it('lists, searches and exports moments, and the download link gives the clip', async () => {
    const { moments } = await output(
      MomentList,
      call(owner.mcp, 'list_moments', { task_id: finished.taskId }),
    );
    expect(moments.map((moment) => moment.title)).toEqual(['Glaciers melting quickly']);

    const found = await output(
      SearchVideosReply,
      call(owner.mcp, 'search_moments', { query: 'glaciers melting' }),
    );
    expect(found.items.map((hit) => hit.task_id)).toContain(finished.taskId);

    const started = await output(
      ExportResult,
      call(owner.mcp, 'export_clip', {
        moment_id: finished.momentId,
        aspect: '1:1',
        template: 'karaoke',
      }),
    );
    expect(started).toMatchObject({ type: 'VIRAL_MOMENT_EXPORT', download_url: null });
    let job = started;
    for (let tries = 0; job.status === 'IN_PROGRESS' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await output(ExportResult, call(owner.mcp, 'get_export', { export_id: job.job_id }));
    }
    expect(job.status, job.error_reason ?? '').toBe('DONE');
    expect(job.download_url?.startsWith(`${t.url}/files/`)).toBe(true);
    const file = await fetch(job.download_url!);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(media.renderedBytes);
  });

  it('holds an API token to its scopes: a read token lists tasks, start_task answers INSUFFICIENT_SCOPE', async () => {
    const api = createMomentsClient({ baseUrl: t.url, token: owner.token });
    const made = await unwrap(
      api.POST('/api/tokens', { body: { name: 'read-only agent', scopes: ['read'] } }),
    );
    const reader = await connect(made.token);
    const { tasks } = await output(TaskList, call(reader, 'list_tasks'));
    expect(tasks.map((one) => one.id)).toContain(finished.taskId);
    const uploadId = await uploadVideo(owner.token);
    const refused = await refusal(
      call(reader, 'start_task', { upload_id: uploadId, kind: 'viral' }),
    );
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_SCOPE', status: 403 });
  });

  it("answers another user's ids with the API's NOT_FOUND", async () => {
    const uploadId = await uploadVideo(owner.token);
    const jobs = await createMomentsClient({ baseUrl: t.url, token: owner.token }).GET(
      '/api/job/list',
      { params: { query: {} } },
    );
    const ownerExport = jobs.data?.data[0]?.job_id ?? 'none';
    for (const [tool, args] of [
      ['get_task', { task_id: finished.taskId }],
      ['list_moments', { task_id: finished.taskId }],
      ['export_clip', { moment_id: finished.momentId }],
      ['get_export', { export_id: ownerExport }],
      ['start_task', { upload_id: uploadId }],
    ] as const) {
      expect(await refusal(call(stranger.mcp, tool, args)), tool).toEqual({
        code: 'NOT_FOUND',
        status: 404,
        message: expect.any(String),
      });
    }
    // Nothing of the owner's is listed to the stranger either.
    const { moments } = await output(MomentList, call(stranger.mcp, 'list_moments'));
    expect(moments).toEqual([]);
  });

  it('starts once and charges once for a retried start with the same idempotency_key', async () => {
    const uploadId = await uploadVideo(owner.token);
    const args = { upload_id: uploadId, idempotency_key: `agent-retry-${uploadId}` };
    const first = await output(Task, call(owner.mcp, 'start_task', args));
    const again = await output(Task, call(owner.mcp, 'start_task', args));
    expect(again.id).toBe(first.id);
    const { movements } = await output(
      CreditHistory,
      call(owner.mcp, 'credits', { movements: 100 }),
    );
    const charged = movements
      .filter((movement) => movement.task_id === first.id)
      .reduce((sum, movement) => sum + movement.amount, 0);
    expect(charged).toBe(-first.cost_credits);
  });

  it("refuses links as the API does: a private network's, and search words", async () => {
    expect(
      await refusal(call(owner.mcp, 'start_task', { url: 'http://192.168.1.20/talk.mp4' })),
    ).toMatchObject({ code: 'PRIVATE_ADDRESS', status: 422 });
    expect(
      await refusal(call(owner.mcp, 'start_task', { url: 'how to edit videos' })),
    ).toMatchObject({ code: 'INVALID_URL', status: 422 });
  });

  it('starts a caption task on an upload', async () => {
    const uploadId = await uploadVideo(stranger.token);
    const task = await output(
      Task,
      call(stranger.mcp, 'start_task', { upload_id: uploadId, kind: 'caption' }),
    );
    expect(task).toMatchObject({ kind: 'caption', query: null, url_source: 'upload' });
  });

  it("refuses a tool's input outside its contract schema before calling the API", async () => {
    for (const [args, why] of [
      [{ kind: 'viral' }, /upload_id or url/],
      [{ url: 'https://example.com/a.mp4', kind: 'question' }, /needs its query/],
      [{ url: 'https://example.com/a.mp4', query: 'why?' }, /only a question task/],
      [{ url: 'https://example.com/a.mp4', kind: 'highlights' }, /kind/],
    ] as const) {
      const answered = await call(owner.mcp, 'start_task', args);
      expect(answered.isError).toBe(true);
      expect(JSON.stringify(answered.content)).toMatch(why);
    }
  });

  it('refuses a missing or wrong token, and the session cookie alone', async () => {
    for (const token of [undefined, 'not-a-token']) {
      await expect(connect(token)).rejects.toMatchObject({
        code: 401,
        message: expect.stringContaining('UNAUTHORIZED'),
      });
    }
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    };
    const reply = await fetch(new URL('/mcp', t.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        cookie: `moments_session=${owner.token}`,
      },
      body: JSON.stringify(initialize),
    });
    expect(reply.status).toBe(401);
    expect(((await reply.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  });

  it('answers GET with 405: a stateless server offers no server-sent stream', async () => {
    const reply = await fetch(new URL('/mcp', t.url), {
      headers: { authorization: `Bearer ${owner.token}`, accept: 'text/event-stream' },
    });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST');
  });
});

describe('moments-mcp, the stdio entry', () => {
  it('serves the same tools to a local agent, with the server address and token it is given', async () => {
    const mcp = new Client({ name: 'moments-test-local-agent', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: BIN,
        args: ['--url', t.url],
        env: { ...(process.env as Record<string, string>), MOMENTS_TOKEN: owner.token },
        stderr: 'pipe',
      }),
    );
    clients.push(mcp);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toContain('credits');
    const credits = await output(CreditHistory, call(mcp, 'credits', { movements: 5 }));
    expect(credits.balances.length).toBeGreaterThan(0);
    expect(credits.page_size).toBe(5);
  }, 60_000);
});
