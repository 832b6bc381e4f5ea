/**
 * A webhook delivery lives in the job table, not in the process that queued it: a server that
 * stops before sending it leaves it for the next start, which delivers it, signed and verified
 * (PGlite on disk and PostgreSQL, the database kept across the restart).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { waitFor } from './support/stomp.js';
import { DATABASE_TARGETS, createScratchPostgres, openPglite } from './support/databases.js';
import { signUp, startTestApp } from './support/app.js';

/**
 * A database that outlives the server using it: `open` again after the server closed it. PGlite
 * keeps its files the way a disk would, as a dump taken when the server closes it (an on-disk
 * PGlite would take seconds more to open twice).
 */
async function keptDatabase(kind: 'pglite' | 'postgres') {
  if (kind === 'pglite') {
    let files: Blob | File | undefined;
    return {
      async open(): Promise<Database> {
        const database = files ? await openDatabase({ loadDataDir: files }) : await openPglite();
        return {
          ...database,
          async close() {
            files = await database.pglite!.dumpDataDir('none');
            await database.close();
          },
        };
      },
      drop: async () => undefined,
    };
  }
  const scratch = await createScratchPostgres();
  return { open: () => openDatabase({ url: scratch.url }), drop: () => scratch.drop() };
}

describe.each(DATABASE_TARGETS)('webhook deliveries across a restart on $name', (target) => {
  let skip: string | null = null;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 200;
      response.end('ok');
    });
  });

  beforeAll(async () => {
    skip = await target.unavailable();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('delivers after the restart what was queued before it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { port } = receiver.address() as AddressInfo;
    const env = { WEBHOOK_ALLOW_PRIVATE: '1', WORKER_QUEUES: 'render' };
    const database = await keptDatabase(target.name);
    try {
      // The first server takes no jobs: what it queues waits in the job table.
      const first = await startTestApp(await database.open(), env, { workers: false });
      const user = await signUp(first.app, 'restarted');
      const hook = await first.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: user.headers,
        payload: { url: `http://127.0.0.1:${port}/hook`, events: ['task.done'] },
      });
      expect(hook.statusCode, hook.body).toBe(200);
      const { id, secret } = hook.json().data as { id: string; secret: string };
      const test = await first.app.inject({
        method: 'POST',
        url: `/api/webhooks/${id}/test`,
        headers: user.headers,
      });
      expect(test.statusCode, test.body).toBe(200);
      const deliveryId = test.json().data.id as string;
      await first.close();
      expect(received).toHaveLength(0);

      const second = await startTestApp(await database.open(), env, { workers: true });
      try {
        await waitFor(() => received.length === 1, 'the delivery after the restart', 20_000);
        const [delivery] = received;
        expect(delivery!.headers['webhook-id']).toBe(deliveryId);
        const payload = new Webhook(secret).verify(delivery!.body, {
          'webhook-id': String(delivery!.headers['webhook-id']),
          'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
          'webhook-signature': String(delivery!.headers['webhook-signature']),
        });
        expect(payload).toMatchObject({ type: 'webhook.test', data: { webhook_id: id } });
        const logged = async () =>
          (
            await second.app.inject({
              method: 'GET',
              url: `/api/webhooks/${id}/deliveries`,
              headers: user.headers,
            })
          ).json().data[0] as { id: string; status: string; attempts: number };
        let entry = await logged();
        for (let i = 0; i < 50 && entry.status === 'pending'; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          entry = await logged();
        }
        expect(entry).toMatchObject({ id: deliveryId, status: 'succeeded', attempts: 1 });
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
