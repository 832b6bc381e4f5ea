import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InProcessBus } from './bus.js';
import {
  connectStompClient,
  openRawStompClient,
  startStompServer,
  waitFor,
  type TestStompClient,
  type TestStompServer,
} from '../../test/support/stomp.js';

const tokens = new Map([
  ['alice-token', 'alice'],
  ['bob-token', 'bob'],
]);

describe('STOMP endpoint /stomp-ws', () => {
  let bus: InProcessBus;
  let server: TestStompServer;
  const clients: TestStompClient[] = [];

  async function connect(token: string, options?: { heartbeatMs?: number }) {
    const client = await connectStompClient(server.url, token, options);
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    bus = new InProcessBus();
    server = await startStompServer(bus, tokens);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.disconnect()));
    await server.close();
    await bus.close();
  });

  it('refuses a CONNECT without a token with an ERROR frame and closes', async () => {
    const attempt = connectStompClient(server.url, undefined);
    await expect(attempt).rejects.toMatchObject({ stompMessage: 'Unauthorized' });
    await waitFor(() => server.handle.connectionCount() === 0, 'the socket to close');
  });

  it('refuses an unknown token, and its socket gets none of the user messages', async () => {
    const raw = await openRawStompClient(server.url);
    raw.send('CONNECT', { 'accept-version': '1.2', host: 'moments', token: 'stolen-token' });
    raw.send('SUBSCRIBE', { id: 'sub-0', destination: '/user/queue/msg' });
    const error = await raw.nextFrame('ERROR');
    expect(error.headers.message).toBe('Unauthorized');
    await bus.publish('alice', { type: 'TASK_STATUS_UPDATE', data: { task_status: 'DONE' } });
    await raw.closed;
    expect(raw.frames.map((frame) => frame.command)).toEqual(['ERROR']);
  });

  it('accepts "Bearer <token>" in the token header', async () => {
    const alice = await connect('Bearer alice-token');
    expect(alice.session).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('delivers a message only to its owner, as application/json MESSAGE frames', async () => {
    const alice = await connect('alice-token');
    const bob = await connect('bob-token');
    const forAlice = {
      type: 'TASK_STATUS_UPDATE',
      data: { task_status: 'SUCCESS', task_title: 'Interview: "part 1" \u2014 ok' },
    };
    await bus.publish('alice', forAlice);
    await bus.publish('bob', { type: 'SYNC_NOTIFY_VIEW', data: { ids: ['n1'] } });

    await waitFor(() => alice.messages.length === 1 && bob.messages.length === 1, 'deliveries');
    expect(alice.messages).toEqual([forAlice]);
    expect(bob.messages).toEqual([{ type: 'SYNC_NOTIFY_VIEW', data: { ids: ['n1'] } }]);
    expect(alice.messageHeaders[0]).toMatchObject({
      destination: '/user/queue/msg',
      'content-type': 'application/json',
    });
    expect(alice.messageHeaders[0]?.['message-id']).toBeTruthy();
    expect(alice.messageHeaders[0]?.subscription).toBeTruthy();
  });

  it('delivers to every client of the user, except the session the sync came from', async () => {
    const laptop = await connect('alice-token');
    const phone = await connect('alice-token');
    await bus.publish('alice', { type: 'JOB_VIRAL_MOMENT_EXPORT', data: { job_id: 'j1' } });
    await waitFor(() => laptop.messages.length === 1 && phone.messages.length === 1, 'both');

    // Viewing on the laptop syncs the *other* clients only.
    await bus.publish(
      'alice',
      { type: 'SYNC_NOTIFY_VIEW', data: { ids: ['n1'] } },
      { exceptSessionId: laptop.session },
    );
    await bus.publish('alice', { type: 'NOTIFY_DELETED', data: { ids: ['n2'] } });
    await waitFor(() => phone.messages.length === 3 && laptop.messages.length === 2, 'sync');
    expect(laptop.messages.map((message) => message.type)).toEqual([
      'JOB_VIRAL_MOMENT_EXPORT',
      'NOTIFY_DELETED',
    ]);
    expect(phone.messages.map((message) => message.type)).toEqual([
      'JOB_VIRAL_MOMENT_EXPORT',
      'SYNC_NOTIFY_VIEW',
      'NOTIFY_DELETED',
    ]);
  });

  it('stops delivering after UNSUBSCRIBE and answers DISCONNECT with its receipt', async () => {
    const raw = await openRawStompClient(server.url);
    raw.send('CONNECT', { 'accept-version': '1.1,1.2', host: 'moments', token: 'alice-token' });
    raw.send('SUBSCRIBE', { id: 'a', destination: '/user/queue/msg', receipt: 'r1' });
    await raw.nextFrame('RECEIPT');
    await bus.publish('alice', { type: 'TASK_STATUS_UPDATE', data: { n: 1 } });
    await raw.nextFrame('MESSAGE');
    raw.send('UNSUBSCRIBE', { id: 'a' });
    raw.send('DISCONNECT', { receipt: 'bye' });
    await waitFor(() => raw.frames.length === 4, 'DISCONNECT receipt');
    await bus.publish('alice', { type: 'TASK_STATUS_UPDATE', data: { n: 2 } });
    await raw.closed;
    expect(raw.frames.map((frame) => [frame.command, frame.headers['receipt-id'] ?? ''])).toEqual([
      ['CONNECTED', ''],
      ['RECEIPT', 'r1'],
      ['MESSAGE', ''],
      ['RECEIPT', 'bye'],
    ]);
    expect(raw.frames[0]?.headers.version).toBe('1.2');
  });

  it('refuses a user more than 20 connections with an ERROR frame saying why; others still connect', async () => {
    const alices = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const raw = await openRawStompClient(server.url);
        raw.send('CONNECT', { 'accept-version': '1.2', token: 'alice-token' });
        await raw.nextFrame('CONNECTED');
        return raw;
      }),
    );
    const extra = await openRawStompClient(server.url);
    extra.send('CONNECT', { 'accept-version': '1.2', token: 'alice-token' });
    const error = await extra.nextFrame('ERROR');
    expect(error.headers.message).toBe('Too many connections');
    expect(error.body.toString()).toMatch(/at most 20 realtime connections/);
    await extra.closed;
    expect(server.handle.connectionCount()).toBe(20);

    // Another user is not held back by Alice's tabs.
    await connect('bob-token');

    // A closed tab makes room again.
    alices[0]!.send('DISCONNECT', {});
    await alices[0]!.closed;
    await waitFor(() => server.handle.connectionCount() === 20, 'the closed tab to be forgotten');
    const again = await openRawStompClient(server.url);
    again.send('CONNECT', { 'accept-version': '1.2', token: 'alice-token' });
    await again.nextFrame('CONNECTED');
    for (const raw of [...alices.slice(1), again]) raw.socket.close();
  });

  it('answers a subscription to another destination with an ERROR frame', async () => {
    const alice = await connect('alice-token');
    const errors: string[] = [];
    alice.client.onStompError = (frame) => errors.push(frame.headers.message ?? '');
    alice.client.subscribe('/topic/everyone', () => {});
    await waitFor(() => errors.length === 1, 'ERROR frame');
    expect(errors).toEqual(['Forbidden destination']);
    await waitFor(() => server.handle.connectionCount() === 0, 'the socket to close');
  });

  it('answers a malformed frame with an ERROR frame and closes', async () => {
    const raw = await openRawStompClient(server.url);
    raw.send('CONNECT', { 'accept-version': '1.2', token: 'alice-token' });
    await raw.nextFrame('CONNECTED');
    // "\q" is not a STOMP 1.2 header escape.
    raw.sendRaw('SUBSCRIBE\nid:0\ndestination:/user/queue/msg\nx-note:a\\qb\n\n\0');
    const error = await raw.nextFrame('ERROR');
    expect(error.headers.message).toBe('Invalid header escape sequence');
    await raw.closed;
  });

  it('refuses frames before CONNECT and frames over the size limit', async () => {
    const early = await openRawStompClient(server.url);
    early.send('SUBSCRIBE', { id: '0', destination: '/user/queue/msg' });
    expect((await early.nextFrame('ERROR')).headers.message).toBe('Not connected');
    await early.closed;

    const huge = await openRawStompClient(server.url);
    huge.send('CONNECT', { 'accept-version': '1.2', token: 'alice-token' });
    await huge.nextFrame('CONNECTED');
    huge.send('ACK', { id: '1', 'x-padding': 'x'.repeat(70 * 1024) });
    expect((await huge.nextFrame('ERROR')).headers.message).toBe('Frame too large');
    await huge.closed;
  });

  it('keeps a client that heart-beats at the negotiated rate connected across more than two intervals', async () => {
    // The product negotiates 4000 ms; the rule is the same at a tenth of the scale, and the
    // test then waits 1 s instead of 10.
    const fastServer = await startStompServer(bus, tokens, {
      heartbeat: { outgoingMs: 400, incomingMs: 400 },
    });
    try {
      const alice = await connectStompClient(fastServer.url, 'alice-token', { heartbeatMs: 400 });
      clients.push(alice);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(alice.client.connected).toBe(true);
      expect(fastServer.handle.connectionCount()).toBe(1);
      await bus.publish('alice', { type: 'TASK_STATUS_UPDATE', data: { task_status: 'DONE' } });
      await waitFor(() => alice.messages.length === 1, 'a message after the idle period');
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.disconnect()));
      await fastServer.close();
    }
  });
});

describe('STOMP heart-beat enforcement', () => {
  it('sends heart-beats and drops a client that goes silent after negotiating them', async () => {
    const bus = new InProcessBus();
    const server = await startStompServer(bus, tokens, {
      heartbeat: { outgoingMs: 100, incomingMs: 100 },
    });
    try {
      const raw = await openRawStompClient(server.url);
      const startedAt = Date.now();
      raw.send('CONNECT', { 'accept-version': '1.2', token: 'bob-token', 'heart-beat': '50,50' });
      const connected = await raw.nextFrame('CONNECTED');
      expect(connected.headers['heart-beat']).toBe('100,100');
      const closeCode = await raw.closed;
      const silentForMs = Date.now() - startedAt;
      // Negotiated: both directions every max(50, 100) = 100 ms; dropped after 2 missed beats.
      expect(silentForMs).toBeGreaterThanOrEqual(200);
      expect(silentForMs).toBeLessThan(2_000);
      expect(closeCode).not.toBe(1000);
      expect(raw.heartbeatsReceived).toBeGreaterThanOrEqual(1);
      await waitFor(() => server.handle.connectionCount() === 0, 'the server to forget it');
    } finally {
      await server.close();
      await bus.close();
    }
  });
});
