/**
 * Personal API tokens on PGlite and PostgreSQL, as a script or an agent uses them: made by a
 * signed-in session and shown once, accepted as a Bearer token on the HTTP API and on the
 * realtime CONNECT, held to their scopes and their own rate limit, and answering 401 everywhere
 * once revoked, expired, or their user is gone.
 */
import { API_TOKEN_PREFIX, LATEST_EXPIRY_MS } from '@moments/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, tasks, users } from '../src/db/schema.js';
import { StompErrorFrame, connectStompClient, waitFor } from './support/stomp.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedUpload } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;
const RATE_LIMIT = 25;
const START = '/api/highlight_moment/task/start?url_source=upload&source_lang=en';

describe.each(DATABASE_TARGETS)('personal API tokens on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let wsUrl: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(
      await target.open(),
      { API_TOKEN_RATE_LIMIT_MAX: String(RATE_LIMIT) },
      { listen: true, media: new FakeMediaRepository() },
    );
    wsUrl = `${t.url.replace('http', 'ws')}/stomp-ws`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const makeToken = async (user: User, body: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: user.headers,
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; token: string };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const listTokens = async (user: User) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/tokens/list',
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Record<string, unknown>[];
  };
  const whoAmI = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(token) });

  it('works as a Bearer token on HTTP and STOMP, shows when it was last used, and after DELETE answers 401 everywhere', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'scripter');
    const made = await makeToken(user, { name: 'my script', scopes: ['read'] });
    expect(made.token.startsWith(API_TOKEN_PREFIX)).toBe(true);

    const [before] = await listTokens(user);
    expect(before).toMatchObject({ id: made.id, name: 'my script', scopes: ['read'] });
    expect(before!.last_used).toBeNull();
    expect(JSON.stringify(before)).not.toContain(made.token);
    expect(String(before!.prefix)).toBe(`${made.token.slice(0, 8)}…`);

    const info = await whoAmI(made.token);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data.id).toBe(user.userId);
    const [after] = await listTokens(user);
    expect(after!.last_used).toBeGreaterThanOrEqual(before!.created as number);

    // The realtime channel takes the token on CONNECT and pushes the user's messages.
    const socket = await connectStompClient(wsUrl, made.token);
    await t.services.bus.publish(user.userId, { type: 'CREDITS_CHANGED', data: {} });
    await waitFor(() => socket.messages.length === 1, 'a message on the token socket');

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${made.id}`,
      headers: user.headers,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await whoAmI(made.token)).statusCode).toBe(401);
    const tasksList = await t.app.inject({
      method: 'GET',
      url: '/api/highlight_moment/task/list?page_num=1&page_size=10',
      headers: bearer(made.token),
    });
    expect(tasksList.statusCode).toBe(401);
    await waitFor(() => !socket.client.connected, 'the token socket to close');
    await expect(connectStompClient(wsUrl, made.token)).rejects.toBeInstanceOf(StompErrorFrame);
    expect(await listTokens(user)).toEqual([]);
    // The session that made it is untouched.
    expect((await whoAmI(user.token)).statusCode).toBe(200);
  });

  it('holds a token to its scopes: a read token cannot start work (403 INSUFFICIENT_SCOPE), a write token can', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'scoped');
    const reader = await makeToken(user, { name: 'reader', scopes: ['read'] });
    const writer = await makeToken(user, { name: 'writer', scopes: ['write'] });
    const video = await seedUpload(t, user.userId);

    const refused = await t.app.inject({
      method: 'POST',
      url: START,
      headers: bearer(reader.token),
      payload: video,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'write' },
    });
    const db = t.services.database.db;
    expect(await db.select().from(tasks).where(eq(tasks.userId, user.userId))).toHaveLength(0);

    const started = await t.app.inject({
      method: 'POST',
      url: START,
      headers: bearer(writer.token),
      payload: video,
    });
    expect(started.statusCode, started.body).toBe(200);
    // `write` includes reading.
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task?id=${started.json().data.id}`,
      headers: bearer(writer.token),
    });
    expect(read.statusCode, read.body).toBe(200);

    // A plan change needs `billing`, whatever else the token may do.
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/cancel',
      headers: bearer(writer.token),
    });
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'billing' },
    });
  });

  it('cannot make tokens or realtime tickets: those need a signed-in session', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'no-chain');
    const full = await makeToken(user, { name: 'all', scopes: ['read', 'write', 'billing'] });
    for (const url of ['/api/tokens', '/api/auth/token']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: bearer(full.token),
        payload: { name: 'child', scopes: ['read'] },
      });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().code, url).toBe('SESSION_REQUIRED');
    }
    expect(await listTokens(user)).toHaveLength(1);
  });

  it('answers 401 once a token has expired, and once its user is deleted (the rows go with the user)', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'short-lived');
    const soon = await makeToken(user, {
      name: 'an hour',
      scopes: ['read'],
      expires_at: Date.now() + 3_600_000,
    });
    expect((await whoAmI(soon.token)).statusCode).toBe(200);
    const [listed] = await listTokens(user);
    expect(listed!.expires_at).toBeGreaterThan(Date.now());
    const db = t.services.database.db;
    await db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, soon.id));
    expect((await whoAmI(soon.token)).statusCode).toBe(401);
    await expect(connectStompClient(wsUrl, soon.token)).rejects.toBeInstanceOf(StompErrorFrame);

    const kept = await makeToken(user, { name: 'kept', scopes: ['read'] });
    await db.delete(users).where(eq(users.id, user.userId));
    expect((await whoAmI(kept.token)).statusCode).toBe(401);
    expect(await db.select().from(apiTokens).where(eq(apiTokens.userId, user.userId))).toEqual([]);
  });

  it('outlives a password change, and dies with the account: 401 and its socket closed', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'leaver');
    const made = await makeToken(user, { name: 'automation', scopes: ['read'] });
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/user/change_password',
      headers: user.headers,
      payload: {
        current_password: 'a sturdy passphrase',
        new_password: 'lanterns over the harbour',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await whoAmI(made.token)).statusCode).toBe(200);

    const socket = await connectStompClient(wsUrl, made.token);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/user/delete_account',
      headers: user.headers,
      payload: { password: 'lanterns over the harbour' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await whoAmI(made.token)).statusCode).toBe(401);
    await waitFor(() => !socket.client.connected, 'the token socket to close');
    await expect(connectStompClient(wsUrl, made.token)).rejects.toBeInstanceOf(StompErrorFrame);
  });

  it('limits each token on its own: past the limit it answers 429, another token still works', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'busy');
    const busy = await makeToken(user, { name: 'busy', scopes: ['read'] });
    const calm = await makeToken(user, { name: 'calm', scopes: ['read'] });
    const codes: number[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) codes.push((await whoAmI(busy.token)).statusCode);
    expect(codes.slice(0, RATE_LIMIT).every((code) => code === 200)).toBe(true);
    const limited = await whoAmI(busy.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect((await whoAmI(calm.token)).statusCode).toBe(200);
    // The person at the screen is not counted against the token.
    expect((await whoAmI(user.token)).statusCode).toBe(200);
  });

  it('refuses bad input with 400 and another user’s token with 404', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'careless');
    const other = await signUp(t.app, 'other');
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/tokens', headers: user.headers, payload });
    for (const payload of [
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: [] },
      { name: 'x'.repeat(10_000), scopes: ['read'] },
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: ['read'], expires_at: 'tomorrow' },
      // Past year 9999: a date the database cannot store.
      { name: 'x', scopes: ['read'], expires_at: 8_639_999_999_999_999 },
    ]) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    const latest = await post({ name: 'x', scopes: ['read'], expires_at: LATEST_EXPIRY_MS });
    expect(latest.statusCode, latest.body).toBe(200);
    const past = await post({ name: 'x', scopes: ['read'], expires_at: Date.now() - 1000 });
    expect(past.statusCode).toBe(422);
    expect(past.json().code).toBe('INVALID_INPUT');

    const theirs = await makeToken(other, { name: 'theirs', scopes: ['read'] });
    for (const id of [theirs.id, 'not-a-uuid']) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/tokens/${id}`,
        headers: user.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    expect((await whoAmI(theirs.token)).statusCode).toBe(200);
    expect((await whoAmI(`${API_TOKEN_PREFIX}made-up`)).statusCode).toBe(401);
  });
});
