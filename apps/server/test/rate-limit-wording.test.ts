/**
 * A 429 RATE_LIMITED says in words the wait its Retry-After header gives. The sign-up limit is
 * per hour, and its refusal said "wait a minute" with Retry-After: 3574.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { startTestApp, type TestApp } from './support/app.js';

describe('rate limit refusals', () => {
  let t: TestApp;

  beforeAll(async () => {
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    // The product's windows: sign-ups per hour, logins per minute.
    t = await startTestApp(await pglite.open(), {
      SIGNUP_RATE_LIMIT_MAX: '1',
      SIGNUP_RATE_LIMIT_WINDOW_MS: String(60 * 60_000),
      LOGIN_RATE_LIMIT_MAX: '1',
      LOGIN_RATE_LIMIT_WINDOW_MS: '60000',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, remoteAddress: '198.51.100.7', payload });

  it('tells a refused sign-up to come back in about an hour, as Retry-After says', async () => {
    const signup = (who: string) =>
      post('/api/auth/signup', {
        email: `${who}@example.com`,
        password: 'a sturdy passphrase',
        username: who,
      });
    expect((await signup('first')).statusCode).toBe(200);
    const refused = await signup('second');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', data: null });
    expect(refused.json().message).toBe('Too many attempts. Try again in 1 hour.');
  });

  it('words a wait under a minute in seconds', async () => {
    const login = () =>
      post('/api/auth/login', { email: 'nobody@example.com', password: 'guess guess guess' });
    expect((await login()).statusCode).toBe(401);
    const refused = await login();
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const unit = retryAfter === 1 ? 'second' : retryAfter === 60 ? 'minute' : 'seconds';
    const count = retryAfter === 60 ? 1 : retryAfter;
    expect(refused.json().message).toBe(`Too many attempts. Try again in ${count} ${unit}.`);
  });
});
