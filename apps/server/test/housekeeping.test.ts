/**
 * Housekeeping: expired sessions and realtime tickets are purged, and run
 * work folders a killed worker left in DATA_DIR/tmp are removed once no run can own them, while
 * live sessions and fresh folders stay. On PGlite and PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

describe.each(DATABASE_TARGETS)('housekeeping on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('purges expired sessions and stale work folders, keeping live ones', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const stale = await signUp(t.app, 'stale');
    const live = await signUp(t.app, 'live');
    const db = t.services.database.db;
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.userId, stale.userId));

    const workRoot = path.join(t.dataDir, 'tmp');
    const leftover = path.join(workRoot, 'task-dead-run');
    const running = path.join(workRoot, 'task-live-run');
    await fs.mkdir(leftover, { recursive: true });
    await fs.mkdir(running, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await fs.utimes(leftover, twoDaysAgo, twoDaysAgo);

    const done = await t.services.housekeeping.runOnce();
    expect(done).toMatchObject({ sessions: 1, workFolders: 1 });
    expect(await db.select().from(sessions).where(eq(sessions.userId, stale.userId))).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/info', headers: live.headers });
    expect(me.statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: stale.headers,
    });
    expect(gone.statusCode).toBe(401);
    expect(await fs.readdir(workRoot)).toContain('task-live-run');
    expect(await fs.readdir(workRoot)).not.toContain('task-dead-run');
  });

  it("removes the work folder of a server process that died, at once, and keeps a live one's", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const tmpRoot = path.join(t.dataDir, 'tmp');
    // A process that ran and exited, named as a server names its folder (host, pid, start).
    const exited = spawnSync(process.execPath, ['-e', '']);
    const host = os.hostname().replace(/[^\w.-]/g, '_');
    const dead = path.join(tmpRoot, `run-${host}-${exited.pid}-12345`, 'task-1-abcd');
    await fs.mkdir(dead, { recursive: true });
    await fs.writeFile(path.join(dead, 'audio.wav'), 'left by a killed run');
    // This process's own folder, with a run inside it, fresh.
    const live = path.join(t.services.workRoot, 'job-2-efgh');
    await fs.mkdir(live, { recursive: true });

    const done = await t.services.housekeeping.runOnce();
    expect(done.workFolders).toBe(1);
    expect(await fs.readdir(tmpRoot)).not.toContain(path.basename(path.dirname(dead)));
    expect(await fs.readdir(t.services.workRoot)).toContain('job-2-efgh');
  });
});
