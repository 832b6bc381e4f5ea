/**
 * A server reachable by anyone:
 * - the forms that need no login (coming soon, help feedback, enterprise contact, sign-up) are
 *   limited per client address: the next post over the limit answers 429 RATE_LIMITED, another
 *   address still gets through;
 * - outside loopback PUBLIC_URL is required at start (the message names it), and no URL the
 *   server hands out (checkout return, billing portal, share previews) is built from the
 *   request's Host header;
 * - Strict-Transport-Security is sent only over https.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { ConfigError, loadConfig } from '../src/config/index.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const FORM_LIMIT = 3;
const EVIL_HOST = 'evil.example';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(await openPglite(), {
    FORM_RATE_LIMIT_MAX: String(FORM_LIMIT),
    SIGNUP_RATE_LIMIT_MAX: String(FORM_LIMIT),
    TRUST_PROXY: '127.0.0.1',
    HOST: '127.0.0.1',
    PORT: '8899',
  });
});
afterAll(async () => {
  await t?.close();
});

const withoutPublicUrl = ({ PUBLIC_URL: _unset, ...env }: NodeJS.ProcessEnv) => env;
const from = (address: string) => ({ remoteAddress: address });

describe('forms anyone can post', () => {
  const forms: { name: string; url: string; body: (i: number) => object; limit: number }[] = [
    {
      name: 'coming soon',
      url: '/sys/coming_soon',
      body: (i) => ({ types: ['clips'], email: `fan${i}@example.com` }),
      limit: FORM_LIMIT,
    },
    {
      name: 'help feedback',
      url: '/api/feedback',
      body: (i) => ({ content: `The captions are great ${i}`, email: `fb${i}@example.com` }),
      limit: FORM_LIMIT,
    },
    {
      name: 'sign-up',
      url: '/api/auth/signup',
      body: (i) => ({
        email: `new${i}-${Date.now()}@example.com`,
        password: 'a sturdy passphrase',
        username: `new${i}`,
      }),
      limit: FORM_LIMIT,
    },
    {
      name: 'enterprise contact',
      url: '/api/contact-us',
      body: () => ({
        first_name: 'Grace',
        last_name: 'Hopper',
        business_email: 'grace@navy.example',
        company_name: 'Navy',
        company_size: '1001 - 5000',
        company_social_channel: 'youtube.com/@navy',
        message: 'Seats for the whole fleet.',
      }),
      limit: 5, // its own limit, per minute
    },
  ];

  it.each(forms)('$name: limited per client address', async ({ url, body, limit }) => {
    // Each form from its own address, so the limits of the others do not count here.
    const address = `10.0.${forms.findIndex((form) => form.url === url)}.7`;
    for (let i = 0; i < limit; i++) {
      const accepted = await t.app.inject({
        method: 'POST',
        url,
        payload: body(i),
        ...from(address),
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url,
      payload: body(limit),
      ...from(address),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', data: null });
    const elsewhere = await t.app.inject({
      method: 'POST',
      url,
      payload: body(limit + 1),
      ...from('10.9.9.9'),
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });
});

describe('PUBLIC_URL', () => {
  it('is required when the server listens beyond loopback, and the message names it', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      expect(() => loadConfig({ HOST: host })).not.toThrow();
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      expect(() => loadConfig({ HOST: host })).toThrow(ConfigError);
      expect(() => loadConfig({ HOST: host })).toThrow(/PUBLIC_URL/);
      expect(() =>
        loadConfig({ HOST: host, PUBLIC_URL: 'https://moments.example', BILLING: 'test' }),
      ).not.toThrow();
    }
    // Said at once with what else such a server needs, not one problem per try.
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/PUBLIC_URL: required[^]*BILLING: must/);
    // A worker serves no HTTP: its HOST does not matter.
    expect(() =>
      loadConfig({
        HOST: '0.0.0.0',
        ROLES: 'worker',
        BILLING: 'test',
        APP_SECRET: 'a'.repeat(32),
        PUBLIC_URL: 'https://moments.example',
      }),
    ).not.toThrow();
  });

  it('a server started on 0.0.0.0 without it stops at once with exit 2 and says why', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-public-url-'));
    try {
      const started = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO_ROOT,
        env: { ...withoutPublicUrl(process.env), HOST: '0.0.0.0', PORT: '0', DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(started.status, started.stderr).toBe(2);
      expect(started.stderr).toMatch(/PUBLIC_URL: required when HOST=0\.0\.0\.0/);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("checkout and the billing portal point at the server's own address, whatever Host says", async () => {
    const user = await signUp(t.app, 'buyer');
    const headers = { ...user.headers, host: EVIL_HOST };
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/payment',
      headers,
      payload: { price: 'credit_100' },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: checkout.json().data, headers });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('http://127.0.0.1:8899/settings/plan');
    expect(page.body).not.toContain(EVIL_HOST);

    const portal = await t.app.inject({ method: 'POST', url: '/api/user/portal-session', headers });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().data.url).toMatch(/^http:\/\/127\.0\.0\.1:8899\//);
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain http, and is sent over https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Behind the trusted proxy that ends TLS.
    const secure = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1',
    });
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // A client cannot claim https for itself without the proxy.
    const claimed = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '10.1.2.3',
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});
