/**
 * The database's disk filling up under a write: the user gets 507 DISK_FULL (as for a full disk
 * under a file), and what they sent never lands in the log. A trigger raises PostgreSQL's own
 * `disk_full` (SQLSTATE 53100) on the notes table, the error a full tablespace gives, so the
 * same path runs on PGlite and PostgreSQL without filling a real disk.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

/** Something only the request body holds, 400 KB of it. */
const MARKER = 'private-note-text-';
const NOTE = `<p>${MARKER.repeat(Math.ceil(400_000 / MARKER.length))}</p>`;

describe.each(DATABASE_TARGETS)('a full database disk on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(
      await target.open(),
      {},
      { log: createLogger('info', { write: (line: string) => void logLines.push(line) }) },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 507 DISK_FULL to a note that cannot be written, with no note text in the log', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'full-disk');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/note',
      headers: user.headers,
      payload: { title: 'Road trip' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;

    const db = t.services.database.db;
    await db.execute(sql`
      CREATE FUNCTION refuse_for_full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'could not extend file "base/16384/16999": No space left on device'
          USING ERRCODE = 'disk_full', HINT = 'Check free disk space.';
      END $$`);
    await db.execute(sql`
      CREATE TRIGGER notes_disk_full BEFORE UPDATE ON notes
      FOR EACH ROW EXECUTE FUNCTION refuse_for_full_disk()`);
    try {
      logLines.length = 0;
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/note?id=${id}`,
        headers: user.headers,
        payload: { content_html: NOTE },
      });
      expect(saved.statusCode, saved.body).toBe(507);
      expect(saved.json()).toMatchObject({ code: 'DISK_FULL', data: null });
      expect(saved.json().message).toMatch(/disk space/);
      // Logged, so the operator knows, but without the parameters of the query that failed.
      const log = logLines.join('\n');
      expect(log).toMatch(/disk full/);
      expect(log).toMatch(/No space left on device/);
      expect(log).not.toContain(MARKER);
    } finally {
      await db.execute(sql`DROP TRIGGER notes_disk_full ON notes`);
      await db.execute(sql`DROP FUNCTION refuse_for_full_disk()`);
    }

    // Once there is room again, the same save works.
    const retried = await t.app.inject({
      method: 'PUT',
      url: `/api/note?id=${id}`,
      headers: user.headers,
      payload: { content_html: '<p>Road trip</p>' },
    });
    expect(retried.statusCode, retried.body).toBe(200);
  });
});
