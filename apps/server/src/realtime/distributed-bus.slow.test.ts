import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeBus } from './bus.js';
import { createRealtimeBus } from './index.js';
import { RealtimeMessageTooLargeError } from './postgres-bus.js';
import {
  connectStompClient,
  isReachable,
  silentLogger,
  startStompServer,
  waitFor,
  type TestStompClient,
  type TestStompServer,
} from '../../test/support/stomp.js';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function hostAndPort(url: string, defaultPort: number): [string, number] {
  const parsed = new URL(url);
  return [parsed.hostname, parsed.port ? Number(parsed.port) : defaultPort];
}

const postgresReachable = await isReachable(...hostAndPort(POSTGRES_URL, 5432));
const redisReachable = await isReachable(...hostAndPort(REDIS_URL, 6379));
if (!postgresReachable)
  console.warn(`Skipping PostgresBus tests: nothing listens at ${POSTGRES_URL}`);
if (!redisReachable) console.warn(`Skipping RedisBus tests: nothing listens at ${REDIS_URL}`);

const tokens = new Map([
  ['alice-token', 'alice'],
  ['bob-token', 'bob'],
]);

/** Two API instances, each with its own bus connection, as two processes would have. */
function describeTwoInstances(kind: 'postgres' | 'redis', url: string, reachable: boolean) {
  describe.skipIf(!reachable)(`${kind} bus between two server instances`, () => {
    // A channel of our own, so that concurrent test runs on the same server do not interfere.
    const channel = `moments_rt_test_${process.pid}_${Date.now()}`;
    let busA: RealtimeBus;
    let busB: RealtimeBus;
    let serverA: TestStompServer;
    let serverB: TestStompServer;
    let aliceOnA: TestStompClient;
    let aliceOnB: TestStompClient;
    let bobOnB: TestStompClient;

    beforeAll(async () => {
      busA = createRealtimeBus({ kind, url, channel, logger: silentLogger });
      busB = createRealtimeBus({ kind, url, channel, logger: silentLogger });
      serverA = await startStompServer(busA, tokens);
      serverB = await startStompServer(busB, tokens);
      aliceOnA = await connectStompClient(serverA.url, 'alice-token');
      aliceOnB = await connectStompClient(serverB.url, 'alice-token');
      bobOnB = await connectStompClient(serverB.url, 'bob-token');
    });

    afterAll(async () => {
      await Promise.all([aliceOnA, aliceOnB, bobOnB].map((client) => client?.disconnect()));
      await Promise.all([serverA?.close(), serverB?.close()]);
      await Promise.all([busA?.close(), busB?.close()]);
    });

    it("fans a message out to the owner's clients on both instances, and to nobody else", async () => {
      const message = { type: 'TASK_STATUS_UPDATE', data: { task_status: 'SUCCESS', n: 1 } };
      await busA.publish('alice', message);
      await busB.publish('bob', { type: 'NOTIFY_VIEWED', data: { ids: ['b1'] } });
      await waitFor(
        () =>
          aliceOnA.messages.length === 1 &&
          aliceOnB.messages.length === 1 &&
          bobOnB.messages.length === 1,
        'fan-out',
      );
      expect(aliceOnA.messages).toEqual([message]);
      expect(aliceOnB.messages).toEqual([message]);
      expect(bobOnB.messages).toEqual([{ type: 'NOTIFY_VIEWED', data: { ids: ['b1'] } }]);
    });

    it('skips the originating session on the other instance too', async () => {
      await busB.publish(
        'alice',
        { type: 'SYNC_NOTIFY_VIEW', data: { ids: ['n7'] } },
        { exceptSessionId: aliceOnA.session },
      );
      await busB.publish('alice', { type: 'SYNC_NOTIFY_DELETE', data: { ids: ['n8'] } });
      await waitFor(
        () => aliceOnB.messages.length === 3 && aliceOnA.messages.length === 2,
        'sync messages',
      );
      expect(aliceOnA.messages.at(-1)?.type).toBe('SYNC_NOTIFY_DELETE');
      expect(aliceOnB.messages.slice(-2).map((message) => message.type)).toEqual([
        'SYNC_NOTIFY_VIEW',
        'SYNC_NOTIFY_DELETE',
      ]);
    });

    it('carries a message far larger than a NOTIFY payload intact', async () => {
      // 3000 ids with accents and emoji (4-byte UTF-8, surrogate pairs in JS): about 90 KB.
      const ids = Array.from({ length: 3_000 }, (_, index) => `notification-é-😀-${index}`);
      await busA.publish('bob', { type: 'SYNC_NOTIFY_VIEW', data: { ids } });
      await waitFor(() => bobOnB.messages.length === 2, 'the large message');
      expect(bobOnB.messages[1]).toEqual({ type: 'SYNC_NOTIFY_VIEW', data: { ids } });
    });
  });
}

describeTwoInstances('postgres', POSTGRES_URL, postgresReachable);
describeTwoInstances('redis', REDIS_URL, redisReachable);

describe.skipIf(!postgresReachable)('postgres bus limits', () => {
  it('refuses a message over 1 MiB with a clear error', async () => {
    const bus = createRealtimeBus({ kind: 'postgres', url: POSTGRES_URL, logger: silentLogger });
    try {
      const data = { blob: 'x'.repeat(1024 * 1024 + 1) };
      await expect(bus.publish('alice', { type: 'TASK_STATUS_UPDATE', data })).rejects.toThrow(
        RealtimeMessageTooLargeError,
      );
    } finally {
      await bus.close();
    }
  });
});
