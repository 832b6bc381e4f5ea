import { UserInfo } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

describe.each(DATABASE_TARGETS)('accounts on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), { LOGIN_RATE_LIMIT_MAX: '5' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs up with an httpOnly SameSite cookie, a bearer token and the free plan', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'Ada@Example.com', password: 'analytical engine', username: 'ada' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[\w-]{40,}$/);
    const cookie = response.cookies.find((c) => c.name === 'moments_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.value).toBe(body.data.token);

    // The cookie alone authenticates the web app; the token alone authenticates API clients.
    const byCookie = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      cookies: { moments_session: cookie!.value },
    });
    const byBearer = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${body.data.token}` },
    });
    expect(byCookie.json().data).toEqual(byBearer.json().data);
    // A cookie-only client asks for a realtime ticket, which is not its session token.
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      cookies: { moments_session: cookie!.value },
    });
    expect(token.json().data.token).toMatch(/^rt_/);
    expect(token.json().data.token).not.toBe(body.data.token);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/token' })).statusCode).toBe(401);
    const info = UserInfo.parse(byBearer.json().data);
    expect(info).toMatchObject({
      username: 'ada',
      email: 'ada@example.com',
      edu_verified: false,
      subscription: { current_plan: 'free', cancel_at_period_end: false },
    });
    const credit = info.entitlements.find((e) => e.feature === 'CREDIT');
    expect(credit).toMatchObject({ usage: 0 });
    expect(credit!.limit).toBeGreaterThan(0);
    expect(info.entitlements.map((e) => e.feature).sort()).toEqual([
      'BRAND_KITS',
      'CANVAS_EXPORT',
      'CREDIT',
      'FREE_TOOL_CREDIT',
      'MAX_CLIP_MINUTES',
      'MAX_VIDEO_MINUTES',
    ]);
  });

  it('refuses a duplicate email, a weak password and malformed input with stable codes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const first = await signUp(t.app, 'dup');
    const duplicate = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        email: first.email.toUpperCase(),
        password: 'another passphrase',
        username: 'dup2',
      },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'EMAIL_TAKEN', data: null });

    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'weak@example.com', password: 'short', username: 'weak' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    const common = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'common@example.com', password: 'password123', username: 'common' },
    });
    expect(common.json().code).toBe('WEAK_PASSWORD');

    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'not-an-email', password: 'a sturdy passphrase' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_FAILED');
  });

  it('logs in, rejects wrong credentials, and logs out', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'grace');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'not the passphrase' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'a sturdy passphrase' },
    });
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'a sturdy passphrase' },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.token;
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers })).statusCode).toBe(
      200,
    );

    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    expect(logout.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/user/info', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
  });

  it('rate-limits login attempts', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.9',
        payload: { email: 'brute@example.com', password: 'guess guess guess' },
      });
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await attempt()).statusCode);
    expect(codes.slice(0, 5).every((code) => code === 401)).toBe(true);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
  });

  it('serves the OpenAPI document and a JSON 404 for unknown API paths', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const doc = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/auth/signup', '/api/auth/login', '/api/user/info']),
    );
    const missing = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: 'No such endpoint', data: null });
  });

  it('stores coming-soon sign-ups and validates them', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const good = await t.app.inject({
      method: 'POST',
      url: '/sys/coming_soon',
      payload: { types: ['summaries'], email: 'fan@example.com' },
    });
    expect(good.json()).toMatchObject({ code: 0 });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/sys/coming_soon',
      payload: { types: [], email: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
