import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { startTestApp, type TestApp } from './support/app.js';

describe('app routes of the web build', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-dist-'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Moments</title>');
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    t = await startTestApp(await pglite.open(), { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('answers HEAD like GET on client-side routes, and 404 on unknown API paths', async () => {
    for (const url of ['/home', '/invite/landing?ref=abc', '/unsubscribe/x.y', '/settings/faq']) {
      const get = await t.app.inject({ method: 'GET', url });
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(get.statusCode, url).toBe(200);
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.body).toBe('');
    }
    const api = await t.app.inject({ method: 'HEAD', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
  });
});
