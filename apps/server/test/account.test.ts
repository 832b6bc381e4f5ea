/**
 * The account itself: deleting it (files, sessions and password gone, the ledger kept without a
 * name), changing the password (other sessions end) and the email (a single-use, expiring link
 * mailed to the new address). On PGlite and PostgreSQL, with the fake media tools.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, emailChanges, uploads, users } from '../src/db/schema.js';
import { OutboxMailer } from '../src/modules/mail/index.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { multipartFile, signUp, startTestApp, type TestApp } from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask, storedKeys } from './support/fixtures.js';

const PASSWORD = 'a sturdy passphrase';

describe.each(DATABASE_TARGETS)('the account on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { media: new FakeMediaRepository() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const login = (email: string, password: string) => post('/api/auth/login', { email, password });
  const info = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/user/info', headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('deletes the account with its files and sessions, keeping the ledger without a name', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'leaver');
    const neighbour = await signUp(t.app, 'neighbour');
    const second = await login(user.email, PASSWORD);
    const secondToken = second.json().data.token as string;
    const body = multipartFile('talk.mp4', Buffer.alloc(500, 3));
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...user.headers, ...body.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const thumbnail = uploaded.json().data.thumbnail as string;
    const video = path.join(t.dataDir, 'leaver.mp4');
    await fs.writeFile(video, 'stand-in media');
    const fixture = {
      video,
      title: 'Mine',
      durationMs: 60_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 10_000, title: 'Hello' },
    };
    await seedFinishedTask(t, user.userId, fixture);
    await seedFinishedTask(t, neighbour.userId, fixture);
    expect(await storedKeys(t, user.userId)).toHaveLength(3);
    const neighbourKeys = await storedKeys(t, neighbour.userId);

    const wrong = await post('/api/user/delete_account', { password: 'not it' }, user.headers);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    expect((await info(user.headers)).statusCode).toBe(200);
    expect(await storedKeys(t, user.userId)).toHaveLength(3);
    expect((await post('/api/user/delete_account', {}, user.headers)).statusCode).toBe(400);
    expect((await post('/api/user/delete_account', { password: PASSWORD })).statusCode).toBe(401);

    const deleted = await post('/api/user/delete_account', { password: PASSWORD }, user.headers);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(String(deleted.headers['set-cookie'])).toMatch(/moments_session=;/);

    // Every way in is closed: both sessions, the password, the old email.
    expect((await info(user.headers)).statusCode).toBe(401);
    expect((await info(bearer(secondToken))).statusCode).toBe(401);
    const again = await login(user.email, PASSWORD);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('INVALID_CREDENTIALS');
    // No file and no link is left.
    expect(await storedKeys(t, user.userId)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: thumbnail })).statusCode).toBe(404);
    expect(await db().select().from(uploads).where(eq(uploads.userId, user.userId))).toEqual([]);
    // The ledger stays (the free plan's grant), pointing at a row that names no one.
    const ledger = await db()
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.userId));
    expect(ledger.length).toBeGreaterThan(0);
    const [row] = await db().select().from(users).where(eq(users.id, user.userId));
    expect(row!.deletedAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(user.email);
    expect(JSON.stringify(row)).not.toContain('leaver');
    // The neighbour keeps everything; the address is free for a new account.
    expect(await storedKeys(t, neighbour.userId)).toEqual(neighbourKeys);
    expect((await info(neighbour.headers)).statusCode).toBe(200);
    const reused = await post('/api/auth/signup', {
      email: user.email,
      password: PASSWORD,
      username: 'newcomer',
    });
    expect(reused.statusCode, reused.body).toBe(200);
  });

  it('refuses to delete an account whose subscription still renews', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'subscriber');
    await db().update(users).set({ currentPlan: 'vip_month' }).where(eq(users.id, user.userId));
    const refused = await post('/api/user/delete_account', { password: PASSWORD }, user.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('SUBSCRIPTION_ACTIVE');
    expect((await info(user.headers)).statusCode).toBe(200);
    await db().update(users).set({ cancelAtPeriodEnd: true }).where(eq(users.id, user.userId));
    expect(
      (await post('/api/user/delete_account', { password: PASSWORD }, user.headers)).statusCode,
    ).toBe(200);
  });

  it('changes the password with the current one, ending every other session', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'changer');
    const other = bearer((await login(user.email, PASSWORD)).json().data.token as string);
    const change = (body: object) => post('/api/user/change_password', body, user.headers);

    const wrong = await change({ current_password: 'guess', new_password: 'another sturdy one' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    const weak = await change({ current_password: PASSWORD, new_password: 'password' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    expect((await info(other)).statusCode).toBe(200);

    const changed = await change({
      current_password: PASSWORD,
      new_password: 'lanterns over the quiet harbour',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await info(user.headers)).statusCode).toBe(200);
    expect((await info(other)).statusCode).toBe(401);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'lanterns over the quiet harbour')).statusCode).toBe(200);
  });

  it('changes the email only through the single-use link mailed to the new address', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'mover');
    const taken = await signUp(t.app, 'holder');
    const newEmail = `moved-${user.userId.slice(0, 8)}@example.com`;
    const ask = (body: object) => post('/api/user/change_email', body, user.headers);
    const outbox = new OutboxMailer(path.join(t.dataDir, 'outbox'));
    const linkTo = async (address: string) => {
      const mails = (await outbox.list()).filter(
        (mail) => mail.to === address && mail.subject === 'Confirm your new email address',
      );
      const text = mails.at(-1)?.text ?? '';
      const link = /https?:\/\/\S+\/settings\/email\/confirm\?token=([\w-]+)/.exec(text);
      return { count: mails.length, token: link?.[1] };
    };
    const confirm = (token: string) => post('/api/user/confirm_email', { token });
    const emailOf = async () => (await info(user.headers)).json().data.email as string;

    expect((await ask({ password: 'guess', email: newEmail })).json().code).toBe('WRONG_PASSWORD');
    const clash = await ask({ password: PASSWORD, email: taken.email });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('EMAIL_TAKEN');
    expect((await ask({ password: PASSWORD, email: 'not an address' })).statusCode).toBe(400);
    expect((await linkTo(taken.email)).count).toBe(0);

    const first = await ask({ password: PASSWORD, email: newEmail });
    expect(first.statusCode, first.body).toBe(200);
    const { token: firstToken } = await linkTo(newEmail);
    expect(firstToken).toBeDefined();
    // Nothing changes before the link is opened; a newer request voids the older link.
    expect(await emailOf()).toBe(user.email);
    expect((await ask({ password: PASSWORD, email: newEmail })).statusCode).toBe(200);
    const { token, count } = await linkTo(newEmail);
    expect(count).toBe(2);
    expect((await confirm(firstToken!)).statusCode).toBe(404);

    const opened = await confirm(token!);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data.email).toBe(newEmail);
    expect(await emailOf()).toBe(newEmail);
    expect((await login(newEmail, PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(401);
    const reused = await confirm(token!);
    expect(reused.statusCode).toBe(410);
    expect(reused.json().code).toBe('EMAIL_LINK_USED');
    const unknown = await confirm('made-up-token');
    expect(unknown.statusCode).toBe(404);

    // A link past its day is refused and changes nothing.
    const back = user.email;
    expect((await ask({ password: PASSWORD, email: back })).statusCode).toBe(200);
    const { token: lateToken } = await linkTo(back);
    await db()
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.newEmail, back));
    const late = await confirm(lateToken!);
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('EMAIL_LINK_EXPIRED');
    expect(await emailOf()).toBe(newEmail);
    // Housekeeping removes expired links.
    expect((await t.services.housekeeping.runOnce()).emailLinks).toBeGreaterThanOrEqual(1);
    expect((await confirm(lateToken!)).statusCode).toBe(404);
  });
});
