/**
 * Realtime sessions: the web app authenticates its STOMP connection with
 * a single-use ticket, never the httpOnly session token, and logging out closes the session's
 * sockets on every API process (two processes on one PostgreSQL, fanned out by the realtime bus).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import {
  connectStompClient,
  StompErrorFrame,
  waitFor,
  type TestStompClient,
} from './support/stomp.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const postgres = await postgresReachable();
if (!postgres) console.warn('Skipping realtime session tests: PostgreSQL is not reachable');

describe.skipIf(!postgres)('realtime sessions across two API processes', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let first: TestApp;
  let second: TestApp;
  const clients: TestStompClient[] = [];
  const wsUrl = (app: TestApp) => `${app.url.replace('http', 'ws')}/stomp-ws`;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const env = { REALTIME_BUS: 'postgres' };
    first = await startTestApp(await openDatabase({ url: scratch.url }), env, { listen: true });
    second = await startTestApp(await openDatabase({ url: scratch.url }), env, { listen: true });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect()));
    await first?.close();
    await second?.close();
    await scratch?.drop();
  });

  const ticketFor = async (app: TestApp, sessionToken: string) => {
    const response = await app.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      cookies: { moments_session: sessionToken },
    });
    expect(response.statusCode).toBe(200);
    return response.json().data.token as string;
  };

  const connectError = async (url: string, token: string) => {
    const error = await connectStompClient(url, token).then(
      (client) => {
        clients.push(client);
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StompErrorFrame);
    return (error as StompErrorFrame).stompMessage;
  };

  it('realtime token endpoint gives a single-use ticket, never the session token', async () => {
    const user = await signUp(first.app, 'ticket');
    const ticket = await ticketFor(first, user.token);
    expect(ticket).not.toBe(user.token);
    expect(ticket).not.toContain(user.token);
    // The ticket is no session: it does not authenticate API calls.
    const asSession = await first.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${ticket}` },
    });
    expect(asSession.statusCode).toBe(401);

    // Minted on one process, accepted by the other once, then never again.
    const client = await connectStompClient(wsUrl(second), ticket);
    clients.push(client);
    expect(client.session).not.toBe('');
    expect(await connectError(wsUrl(first), ticket)).toBe('Unauthorized');
  });

  it('logout closes the session sockets on every API process', async () => {
    const user = await signUp(first.app, 'logout');
    const other = await signUp(first.app, 'bystander');
    const onFirst = await connectStompClient(wsUrl(first), await ticketFor(first, user.token));
    const onSecond = await connectStompClient(wsUrl(second), await ticketFor(second, user.token));
    const bystander = await connectStompClient(wsUrl(second), await ticketFor(second, other.token));
    clients.push(onFirst, onSecond, bystander);
    const closed = new Set<string>();
    for (const [name, client] of [
      ['first', onFirst],
      ['second', onSecond],
      ['bystander', bystander],
    ] as const) {
      client.client.onWebSocketClose = () => closed.add(name);
    }
    const unusedTicket = await ticketFor(first, user.token);

    const logout = await first.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: user.headers,
    });
    expect(logout.statusCode).toBe(200);
    await waitFor(() => closed.has('first') && closed.has('second'), 'both sockets to close');
    expect(closed.has('bystander')).toBe(false);
    // A ticket minted before logout dies with its session.
    expect(await connectError(wsUrl(second), unusedTicket)).toBe('Unauthorized');
  });
});
