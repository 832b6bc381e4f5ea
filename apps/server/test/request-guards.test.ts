/**
 * Guards every request passes: client addresses and rate limits that
 * a forged X-Forwarded-For cannot dodge, CSRF refusals for cookie calls from other sites, and
 * security headers on both the API and the SPA.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const ORIGIN = 'http://moments.test';

describe('request guards', () => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-web-'));
    await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Moments</title>');
    t = await startTestApp(await openPglite(), {
      LOGIN_RATE_LIMIT_MAX: '3',
      SIGNUP_RATE_LIMIT_MAX: '3',
      WEB_DIST_DIR: webDir,
    });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it('login rate limit is not bypassed by a new X-Forwarded-For per attempt', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
        payload: { email: 'nobody@example.com', password: 'wrong password here' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it('sign-up is rate limited per client address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: '198.51.100.7',
        headers: { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
        payload: {
          email: `farm-${attempt}@example.com`,
          password: 'a sturdy passphrase',
          username: 'farm',
        },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  describe('CSRF', () => {
    let cookie: string;
    beforeAll(async () => {
      cookie = (await signUp(t.app, 'csrf')).token;
    });
    const call = (headers: Record<string, string>, payload?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/notify/all-viewed',
        cookies: { moments_session: cookie },
        headers: { host: 'moments.test', ...headers },
        ...(payload !== undefined ? { payload } : {}),
      });

    it('refuses a cookie call from another origin, whatever the body type', async () => {
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json',
      ]) {
        const response = await call(
          { origin: 'https://evil.example', 'content-type': contentType },
          contentType === 'application/json' ? '{}' : 'a=1',
        );
        expect(response.statusCode).toBe(403);
        expect(response.json().code).toBe('FORBIDDEN');
      }
      expect((await call({ origin: 'null' })).statusCode).toBe(403);
      expect((await call({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    });

    it('refuses form-encoded and text/plain bodies that come without an origin', async () => {
      expect((await call({ 'content-type': 'text/plain' }, 'x')).statusCode).toBe(403);
      expect(
        (await call({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1')).statusCode,
      ).toBe(403);
    });

    it('accepts the app own pages, and bearer-token API clients', async () => {
      expect((await call({ origin: ORIGIN })).statusCode).toBe(200);
      expect((await call({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
      const bearer = await t.app.inject({
        method: 'POST',
        url: '/api/notify/all-viewed',
        headers: { authorization: `Bearer ${cookie}`, origin: 'https://evil.example' },
      });
      expect(bearer.statusCode).toBe(200);
    });
  });

  it('security headers are on API replies and on the SPA', async () => {
    for (const url of ['/api/user/info', '/', '/library/tasks']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toMatch(/worker-src 'self' blob:/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });
});
