/**
 * Hostile users: every endpoint that takes an id answers 404 when another user's id is
 * given, and leaves that user's data alone. The cases are generated from the app's own route table
 * (the OpenAPI document Fastify builds from every registered route), so a new endpoint with an id
 * is covered the day it is added. Signed file links cannot be forged, moved to another file, or
 * used after they expire.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo } from '@moments/media/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiTokens,
  exportBatches,
  jobs,
  moments,
  notes,
  notifications,
  uploads,
  webhooks,
  brandKits,
} from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedFinishedTask } from './support/fixtures.js';

type Kind =
  | 'task'
  | 'moment'
  | 'job'
  | 'batch'
  | 'notification'
  | 'upload'
  | 'note'
  | 'token'
  | 'webhook'
  | 'brand_kit';
type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  minLength?: number;
  items?: Schema;
  minItems?: number;
};
interface Operation {
  parameters?: Array<{ in: 'query' | 'path'; name: string; required?: boolean }>;
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}

/** Names of parameters and body fields that carry a user-owned id, and what they point at. */
function idKind(name: string, route: string): Kind | undefined {
  if (/moment_id$/.test(name)) return 'moment';
  if (/task_id$/.test(name)) return 'task';
  if (name === 'ids') return 'notification';
  if (name !== 'id') return undefined;
  if (route.startsWith('/api/job/batch')) return 'batch';
  if (route.startsWith('/api/job')) return 'job';
  if (route.startsWith('/api/upload')) return 'upload';
  if (route.startsWith('/api/tokens')) return 'token';
  if (route.startsWith('/api/webhooks')) return 'webhook';
  if (route.startsWith('/api/brand_kit')) return 'brand_kit';
  if (route.startsWith('/api/notify')) return 'notification';
  if (route.includes('/task')) return 'task';
  if (route.includes('highlight_moment')) return 'moment';
  if (route.startsWith('/api/note')) return 'note';
  // A video's picture: the probe asks for the owner's task (the `kind` segment says so).
  if (route.startsWith('/api/thumbnail/')) return 'task';
  // Public share pages take a share id, a capability of its own: a private note's id must not
  // open it (nor may an unshared summary's task id).
  if (route.startsWith('/api/share/')) return 'note';
  throw new Error(`${route}: an "id" of unknown kind; teach hostile-users.slow.test.ts what it is`);
}

/** A value the schema accepts, for the fields that are not ids. */
function sample(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if (Object.keys(schema).length === 0) return {};
  if (schema.default !== undefined) return schema.default;
  // A nullable field takes null: a sample string may not match its pattern (a language code).
  if (schema.nullable) return null;
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return sample(variant);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = sample(schema.properties?.[key]);
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Fill every id-carrying field of a body (top level or in its first variant) with `ids`. */
function bodyWithIds(
  schema: Schema,
  route: string,
  ids: Record<Kind, string>,
): { body: unknown; kinds: Kind[] } {
  const objectSchema =
    schema.type === 'object'
      ? schema
      : (schema.anyOf ?? schema.oneOf ?? []).find((s) => s.type === 'object');
  if (!objectSchema?.properties) return { body: sample(schema), kinds: [] };
  const body = sample(objectSchema) as Record<string, unknown>;
  const kinds: Kind[] = [];
  // A note made `from` something names that thing's id (a blank note names none).
  const madeFrom = 'from' in objectSchema.properties;
  if (madeFrom) body.from = 'moment';
  for (const name of Object.keys(objectSchema.properties)) {
    const kind = madeFrom && name === 'id' ? 'moment' : idKind(name, route);
    if (!kind) continue;
    body[name] = name === 'ids' ? [ids[kind]] : ids[kind];
    kinds.push(kind);
  }
  return { body, kinds };
}

interface Probe {
  method: string;
  url: string;
  payload?: unknown;
  kinds: Kind[];
  /** Bulk calls (`ids: [...]`) skip ids that are not the caller's instead of failing. */
  bulk: boolean;
}

function probesFromRouteTable(
  paths: Record<string, Record<string, Operation>>,
  ids: Record<Kind, string>,
): Probe[] {
  const probes: Probe[] = [];
  for (const [route, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const kinds: Kind[] = [];
      let url = route;
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        const kind = idKind(parameter.name, route);
        if (parameter.in === 'path') {
          const fixed = route.startsWith('/api/thumbnail/') && parameter.name === 'kind';
          url = url.replace(`{${parameter.name}}`, fixed ? 'task' : kind ? ids[kind] : 'x');
        } else if (kind) {
          query.set(parameter.name, ids[kind]);
        } else if (parameter.required) {
          query.set(parameter.name, parameter.name === 'url_source' ? 'upload' : 'x');
        }
        if (kind) kinds.push(kind);
      }
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      let payload: unknown;
      if (schema) {
        const filled = bodyWithIds(schema, route, ids);
        payload = filled.body;
        kinds.push(...filled.kinds);
      }
      if (kinds.length === 0) continue;
      const search = query.toString();
      probes.push({
        method: method.toUpperCase(),
        url: search ? `${url}?${search}` : url,
        ...(payload !== undefined ? { payload } : {}),
        kinds,
        bulk: JSON.stringify(payload ?? {}).includes('"ids":'),
      });
    }
  }
  return probes;
}

describe.each(DATABASE_TARGETS)('hostile users on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let dir: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let intruder: Awaited<ReturnType<typeof signUp>>;
  const ids = {} as Record<Kind, string>;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-hostile-'));
    const video = await makeTestVideo(path.join(dir, 'talk.mp4'), { durationSec: 2 });
    owner = await signUp(t.app, 'owner');
    intruder = await signUp(t.app, 'intruder');
    const seeded = await seedFinishedTask(t, owner.userId, {
      video,
      title: 'Private talk',
      durationMs: 2000,
      words: [
        { text: 'private', startMs: 0, endMs: 900 },
        { text: 'words', startMs: 1000, endMs: 1900 },
      ],
      moment: { startMs: 0, endMs: 1900, title: 'Private moment' },
    });
    const db = t.services.database.db;
    const [job] = await db
      .insert(jobs)
      .values({
        userId: owner.userId,
        taskId: seeded.taskId,
        momentId: seeded.momentId,
        type: 'VIRAL_MOMENT_EXPORT',
        status: 'DONE',
        progress: 1,
        title: 'Private export',
        startedAt: new Date(),
      })
      .returning();
    const [batch] = await db
      .insert(exportBatches)
      .values({ userId: owner.userId, taskId: seeded.taskId, jobIds: [job!.id] })
      .returning();
    await db.update(jobs).set({ batchId: batch!.id }).where(eq(jobs.id, job!.id));
    const [notification] = await db
      .insert(notifications)
      .values({
        userId: owner.userId,
        type: 'TASK_STATUS_UPDATE',
        data: { task_id: seeded.taskId },
      })
      .returning();
    const [upload] = await db
      .insert(uploads)
      .values({
        userId: owner.userId,
        storageKey: `users/${owner.userId}/uploads/x/source.mp4`,
        originalName: 'private.mp4',
        sizeBytes: 1000,
      })
      .returning();
    const [note] = await db
      .insert(notes)
      .values({
        userId: owner.userId,
        taskId: seeded.taskId,
        title: 'Private note',
        contentHtml: '<p>private</p>',
        plainText: 'private',
      })
      .returning();
    const [token] = await db
      .insert(apiTokens)
      .values({
        userId: owner.userId,
        name: 'private script',
        tokenHash: 'not-a-real-token-hash',
        prefix: 'mom_xxxx',
        scopes: ['read'],
      })
      .returning();
    const [webhook] = await db
      .insert(webhooks)
      .values({
        userId: owner.userId,
        url: 'https://hooks.example.com/private',
        events: ['task.done'],
        secret: 'whsec_private',
      })
      .returning();
    const [kit] = await db
      .insert(brandKits)
      .values({
        userId: owner.userId,
        name: 'Private kit',
        logoPosition: 'top_right',
        logoOpacity: 0.9,
        logoScale: 0.18,
        style: {},
      })
      .returning();
    Object.assign(ids, {
      brand_kit: kit!.id,
      token: token!.id,
      webhook: webhook!.id,
      note: note!.id,
      task: seeded.taskId,
      moment: seeded.momentId,
      job: job!.id,
      batch: batch!.id,
      notification: notification!.id,
      upload: upload!.id,
    });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("every endpoint with an id answers 404 to another user's id, generated from the route table", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, Operation>> }).paths;
    const probes = probesFromRouteTable(paths, ids);
    // The table really is the app's: the known id endpoints are all in it.
    const covered = probes.map((probe) => `${probe.method} ${probe.url.split('?')[0]}`);
    for (const known of [
      `GET /api/highlight_moment/task`,
      `DELETE /api/highlight_moment/task`,
      `POST /api/highlight_moment/share`,
      `GET /api/job/${ids.job}`,
      `DELETE /api/job/${ids.job}`,
      `POST /api/job`,
      `POST /api/job/batch`,
      `GET /api/job/batch/${ids.batch}`,
      `GET /api/job/batch/${ids.batch}/zip`,
      `GET /api/job/${ids.job}/publish_kit`,
      `GET /api/job/${ids.job}/cover`,
      `GET /api/upload/${ids.upload}`,
      `DELETE /api/upload/${ids.upload}`,
      `POST /api/notify/viewed`,
      `GET /api/note`,
      `PUT /api/note`,
      `DELETE /api/note`,
      `POST /api/note/share`,
      `GET /api/summary`,
      `POST /api/summary/share`,
      `DELETE /api/tokens/${ids.token}`,
      `PUT /api/webhooks/${ids.webhook}`,
      `DELETE /api/webhooks/${ids.webhook}`,
      `GET /api/webhooks/${ids.webhook}/deliveries`,
      `PUT /api/brand_kit/${ids.brand_kit}`,
      `DELETE /api/brand_kit/${ids.brand_kit}`,
    ]) {
      expect(covered).toContain(known);
    }
    const answers: string[] = [];
    for (const probe of probes) {
      const response = await t.app.inject({
        method: probe.method as 'GET',
        url: probe.url,
        headers: intruder.headers,
        ...(probe.payload !== undefined ? { payload: probe.payload as object } : {}),
      });
      const code = (response.json() as { code: unknown }).code;
      const expected = probe.bulk ? '200 0' : '404 NOT_FOUND';
      answers.push(
        `${probe.method} ${probe.url} -> ${response.statusCode} ${String(code)}${
          `${response.statusCode} ${String(code)}` === expected ? '' : ` (expected ${expected})`
        }`,
      );
    }
    // Bulk calls answer 200 and change nothing of the owner's: the next test checks the rows.
    const wrong = answers.filter((answer) => answer.includes('(expected'));
    expect(wrong, answers.join('\n')).toEqual([]);
    expect(probes.length).toBeGreaterThan(20);
  });

  it("the owner's data is untouched by those calls", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const db = t.services.database.db;
    const [moment] = await db.select().from(moments).where(eq(moments.id, ids.moment));
    expect(await db.select().from(apiTokens).where(eq(apiTokens.id, ids.token))).toHaveLength(1);
    const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, ids.webhook));
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/private', enabled: true });
    const [kit] = await db.select().from(brandKits).where(eq(brandKits.id, ids.brand_kit));
    expect(kit).toMatchObject({ name: 'Private kit' });
    expect(moment).toMatchObject({ favorite: false, shareId: null, feedback: null });
    const [notification] = await db
      .select()
      .from(notifications)
      .where(eq(notifications.id, ids.notification));
    // Still there (bulk delete skipped it) and still unread (bulk viewed skipped it).
    expect(notification).toMatchObject({ viewed: false });
    const [job] = await db.select().from(jobs).where(eq(jobs.id, ids.job));
    expect(job).toBeDefined();
    const [note] = await db.select().from(notes).where(eq(notes.id, ids.note));
    expect(note).toMatchObject({ title: 'Private note', shareId: null });
    const task = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task?id=${ids.task}`,
      headers: owner.headers,
    });
    expect(task.statusCode).toBe(200);
  });

  it('signed file links cannot be forged, moved to another file, or used after expiry', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const key = `users/${owner.userId}/tasks/${ids.task}/source.mp4`;
    const other = `users/${intruder.userId}/secret.mp4`;
    await t.services.storage.putFile(other, path.join(dir, 'talk.mp4'));
    const signed = await t.services.fileUrls.signFileUrl(key, { expiresInSec: 60 });
    const good = new URL(signed, 'http://x');
    expect(
      (await t.app.inject({ method: 'GET', url: good.pathname + good.search })).statusCode,
    ).toBe(200);

    const refused = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect([403, 404], url).toContain(response.statusCode);
    };
    // Reused for another file.
    await refused(`/files/${other}${good.search}`);
    // Forged: a flipped signature character, a later expiry with the old signature, none at all.
    const sig = good.searchParams.get('sig')!;
    const flipped = new URLSearchParams(good.search);
    flipped.set('sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    await refused(`${good.pathname}?${flipped}`);
    const later = new URLSearchParams(good.search);
    later.set('exp', String(Number(later.get('exp')) + 3600));
    await refused(`${good.pathname}?${later}`);
    await refused(good.pathname);
    // Expired: a one-second link, two seconds later.
    const shortLived = new URL(
      await t.services.fileUrls.signFileUrl(key, { expiresInSec: 1 }),
      'http://x',
    );
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await refused(shortLived.pathname + shortLived.search);
  });
});
