/**
 * Text no database column can hold (a NUL character, which PostgreSQL text refuses, or a
 * lone surrogate, which is not Unicode) is refused with 400 VALIDATION_FAILED on every route that
 * stores text, and nothing is stored. `POST /api/note` with a NUL in the title answered 500
 * INTERNAL on PostgreSQL before. Real text with emoji (surrogate pairs) still goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const NUL = 'Road\u0000trip';
const LONE_HIGH = 'Road trip \uD83D';
const LONE_LOW = '\uDE00 Road trip';

describe.each(DATABASE_TARGETS)('unstorable text on $name', (target) => {
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

  const send = (
    method: 'POST' | 'PUT' | 'GET',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method, url, payload, headers });

  /**
   * A 400 VALIDATION_FAILED naming where the bad text is: the text guard's answer, or the field's
   * own schema rule where that already refuses it (a user name allows letters only).
   */
  const expectRefused = (
    response: Awaited<ReturnType<typeof send>>,
    part: 'body' | 'query' | 'params',
    path: string,
  ) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', data: null });
    if (Array.isArray(body.details)) {
      expect(body.details).toContainEqual(expect.objectContaining({ path }));
    } else {
      expect(body.details).toEqual({ part, path });
    }
  };

  it('refuses a NUL or a lone surrogate in a note, and stores nothing', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'noter');
    for (const title of [NUL, LONE_HIGH, LONE_LOW]) {
      expectRefused(await send('POST', '/api/note', { title }, user.headers), 'body', 'title');
    }
    const list = await send('GET', '/api/note/list', undefined, user.headers);
    expect(list.json().data).toHaveLength(0);

    // Real text, emoji included, is kept as written; an edit with a NUL is refused.
    const created = await send('POST', '/api/note', { title: 'Road trip 😀' }, user.headers);
    expect(created.statusCode, created.body).toBe(200);
    const note = created.json().data;
    expect(note.title).toBe('Road trip 😀');
    expectRefused(
      await send('PUT', `/api/note?id=${note.id}`, { content_html: `<p>${NUL}</p>` }, user.headers),
      'body',
      'content_html',
    );
    const kept = await send('GET', `/api/note?id=${note.id}`, undefined, user.headers);
    expect(kept.json().data.title).toBe('Road trip 😀');
  });

  it('refuses it on the forms anyone can post, and in sign-up', async (ctx) => {
    if (skip) return ctx.skip(skip);
    expectRefused(
      await send('POST', '/api/feedback', { content: NUL.repeat(2), email: 'a@example.com' }),
      'body',
      'content',
    );
    expectRefused(
      await send('POST', '/sys/coming_soon', { types: [LONE_HIGH], email: 'b@example.com' }),
      'body',
      'types.0',
    );
    expectRefused(
      await send('POST', '/api/auth/signup', {
        email: 'c@example.com',
        password: 'a sturdy passphrase',
        username: NUL,
      }),
      'body',
      'username',
    );
    // The account was not made: the same address signs up fine with a real name.
    const fine = await send('POST', '/api/auth/signup', {
      email: 'c@example.com',
      password: 'a sturdy passphrase',
      username: 'Cleo',
    });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses it in a query and in a path, where it would reach a database lookup', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'looker');
    expectRefused(
      await send('GET', `/api/note?id=${encodeURIComponent(NUL)}`, undefined, user.headers),
      'query',
      'id',
    );
    expectRefused(
      await send('GET', `/api/job/${encodeURIComponent(NUL)}`, undefined, user.headers),
      'params',
      'id',
    );
    // A field the route does not read is dropped unseen (never stored), like any unknown field.
    const extra = await send('POST', '/api/note', { title: 'ok', [NUL]: 1 }, user.headers);
    expect(extra.statusCode, extra.body).toBe(200);
    expect(extra.json().data.title).toBe('ok');
  });
});
