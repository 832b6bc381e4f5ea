import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxMailer, type OutboxEntry } from '../src/modules/mail/index.js';
import { connectStompClient, waitFor } from './support/stomp.js';
import { tasks } from '../src/db/schema.js';
import type { TaskRow } from '../src/modules/tasks/task-mapper.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { tamperedSignature } from './support/tokens.js';

const taskRow = (userId: string, status: string, title: string): TaskRow =>
  ({
    id: crypto.randomUUID(),
    userId,
    status,
    stage: 'finishing',
    progress: 100,
    errorReason: status === 'ERROR' ? 'The link answered 404.' : null,
    video: { url: 'https://videos.test/v.mp4', title },
  }) as TaskRow;

const exportJob = (status: 'DONE' | 'ERROR', title: string) => ({
  id: crypto.randomUUID(),
  type: 'VIRAL_MOMENT_EXPORT',
  status,
  title,
  progress: 100,
  momentId: crypto.randomUUID(),
});

/** The /unsubscribe/{encodedParam} token of a mail, read from its body as a user would click it. */
const tokenIn = (mail: OutboxEntry) => {
  const match = /\/unsubscribe\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return match[1];
};

describe.each(DATABASE_TARGETS)('mail, unsubscribe and preferences on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let outbox: OutboxMailer;
  const mailsTo = async (email: string, category?: string) =>
    (await outbox.list()).filter(
      (mail) => mail.to === email && (!category || mail.category === category),
    );

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(
      await target.open(),
      { OPERATOR_EMAIL: 'operator@moments.test', PUBLIC_URL: 'https://moments.test' },
      { listen: true },
    );
    outbox = new OutboxMailer(path.join(t.dataDir, 'outbox'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a welcome mail at sign-up with a one-click unsubscribe link', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'welcome');
    const [welcome, ...more] = await mailsTo(user.email);
    expect(more).toHaveLength(0);
    expect(welcome).toMatchObject({ category: 'account', subject: 'Welcome to Moments' });
    expect(welcome!.text).toContain('https://moments.test/unsubscribe/');
    expect(welcome!.headers?.['List-Unsubscribe']).toMatch(
      /^<https:\/\/moments\.test\/api\/unsubscribe\/.+>$/,
    );
    expect(welcome!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('refuses a tampered token and stops exactly the category a valid one names', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'stopper');
    await t.services.notifications.taskChanged(taskRow(user.userId, 'DONE', 'First talk'), true);
    const [taskMail] = await mailsTo(user.email, 'task');
    expect(taskMail?.subject).toBe('Your moments are ready: First talk');
    const token = tokenIn(taskMail!);

    // Same signature, payload edited to name another category: refused, nothing stops.
    const [payload, signature] = token.split('.');
    const [userId] = Buffer.from(payload!, 'base64url').toString().split(':');
    expect(userId).toBe(user.userId);
    const forged = `${Buffer.from(`${userId}:export`).toString('base64url')}.${signature}`;
    for (const bad of [
      forged,
      `${payload}.${tamperedSignature(signature!)}`,
      'garbage',
      `${payload}.`,
    ]) {
      const refused = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${bad}` });
      expect(refused.statusCode, bad).toBe(404);
      expect(refused.json().code).toBe('INVALID_UNSUBSCRIBE_LINK');
    }

    // The page (no login) says what will stop; one-click POST as a mail client sends it.
    const info = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}` });
    expect(info.json().data).toMatchObject({ category: 'task', stopped: false });
    expect(info.json().data.label).toMatch(/task/i);
    const stop = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(stop.statusCode).toBe(200);
    expect(stop.json().data.stopped).toBe(true);

    await t.services.notifications.taskChanged(taskRow(user.userId, 'ERROR', 'Second'), true);
    await t.services.notifications.jobChanged(user.userId, exportJob('DONE', 'Clip A'), true);
    expect(await mailsTo(user.email, 'task')).toHaveLength(1);
    const exportMails = await mailsTo(user.email, 'export');
    expect(exportMails.map((mail) => mail.subject)).toEqual(['Your export is ready: Clip A']);

    // Settings turn it back on.
    const prefs = await t.app.inject({
      method: 'PUT',
      url: '/api/user/mail-preferences',
      headers: user.headers,
      payload: { category: 'task', enabled: true },
    });
    expect(prefs.json().data.categories).toContainEqual(
      expect.objectContaining({ category: 'task', enabled: true }),
    );
    await t.services.notifications.taskChanged(taskRow(user.userId, 'ERROR', 'Third'), true);
    const taskMails = await mailsTo(user.email, 'task');
    expect(taskMails.map((mail) => mail.subject)).toEqual([
      'Your moments are ready: First talk',
      'Processing failed: Third',
    ]);
    expect(taskMails[1]!.text).toContain('The link answered 404.');
  });

  it('mails finished work only while no browser of the user is connected', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'watcher');
    const tab = await connectStompClient(`${t.url.replace('http', 'ws')}/stomp-ws`, user.token);
    try {
      await t.services.notifications.jobChanged(user.userId, exportJob('DONE', 'Live'), true);
      await waitFor(() => tab.messages.length === 1, 'the live notification');
      expect(await mailsTo(user.email, 'export')).toHaveLength(0);
    } finally {
      await tab.disconnect();
    }
    await waitFor(() => !t.services.presence.isConnected(user.userId), 'disconnect');
    await t.services.notifications.jobChanged(user.userId, exportJob('ERROR', 'Away'), true);
    expect((await mailsTo(user.email, 'export')).map((mail) => mail.subject)).toEqual([
      'Export failed: Away',
    ]);
  });

  it('stores help feedback and mails it to the operator, logged in or not', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'helpful');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: user.headers,
      payload: { content: 'The caption editor needs a bigger font option.' },
    });
    expect(sent.statusCode).toBe(200);
    const anonymousWithoutEmail = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { content: 'Who am I?' },
    });
    expect(anonymousWithoutEmail.statusCode).toBe(422);
    const operatorMails = await mailsTo('operator@moments.test', 'operator');
    const mine = operatorMails.find((mail) => mail.subject === `Feedback from ${user.email}`);
    expect(mine?.text).toContain('bigger font option');
    expect(mine?.text).not.toContain('/unsubscribe/');
  });
});

/** A real SMTP server on loopback that keeps every message it receives, raw. */
async function startSmtpServer(port = 0) {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    received,
    port: (server.server.address() as AddressInfo).port,
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMTP transport', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await t?.close();
    await smtp.close();
  });

  it('delivers a real message with the unsubscribe header to an SMTP server', async () => {
    const pglite = DATABASE_TARGETS.find((candidate) => candidate.name === 'pglite')!;
    t = await startTestApp(
      await pglite.open(),
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Moments <mail@moments.test>',
        PUBLIC_URL: 'https://moments.test',
      },
      // With SMTP, mail is handed over by a worker (the mail-send job).
      { workers: true },
    );
    const user = await signUp(t.app, 'smtp');
    // Handed over by a worker (the mail-send job), within a poll or two.
    await waitFor(() => smtp.received.length === 1, 'the SMTP delivery', 30_000);
    const raw = smtp.received[0]!;
    expect(raw).toMatch(/^Subject: Welcome to Moments/m);
    expect(raw).toMatch(new RegExp(`^To: ${user.email}`, 'm'));
    expect(raw).toMatch(/^From: Moments <mail@moments\.test>/m);
    expect(raw).toMatch(/^List-Unsubscribe:\s+<https:\/\/moments\.test\/api\/unsubscribe\//m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  });
});

describe('mail while the SMTP server is down', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers the sign-up at once and delivers its welcome mail once SMTP is back', async () => {
    // A port that refuses connections: the mail server is down.
    const gone = await startSmtpServer();
    await gone.close();
    const pglite = DATABASE_TARGETS.find((candidate) => candidate.name === 'pglite')!;
    t = await startTestApp(
      await pglite.open(),
      {
        SMTP_URL: gone.url,
        MAIL_FROM: 'Moments <mail@moments.test>',
        PUBLIC_URL: 'https://moments.test',
      },
      { workers: true },
    );
    const user = await signUp(t.app, 'patient');
    const mailQueue = async () =>
      (await t!.services.queue.overview()).find((view) => view.kind === 'mail-send')!;
    // The first delivery failed and the mail waits on the job table for its retry.
    await expect
      .poll(async () => (await mailQueue()).counts.retry, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(gone.received).toHaveLength(0);

    smtp = await startSmtpServer(gone.port);
    await expect.poll(() => smtp!.received.length, { timeout: 60_000 }).toBe(1);
    const mail = await simpleParser(smtp.received[0]!);
    expect(mail.subject).toMatch(/Welcome to Moments/);
    expect(mail.to).toMatchObject({ text: user.email });
    expect(smtp.received[0]).toMatch(
      /^List-Unsubscribe:\s+<https:\/\/moments\.test\/api\/unsubscribe\//m,
    );
    await expect.poll(async () => (await mailQueue()).counts.completed).toBe(1);
  }, 120_000);
});

describe('mail as a mail client reads it (mailparser)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const pglite = DATABASE_TARGETS.find((candidate) => candidate.name === 'pglite')!;
    t = await startTestApp(
      await pglite.open(),
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Moments <mail@moments.test>',
        PUBLIC_URL: 'https://moments.test',
      },
      // With SMTP, mail is handed over by a worker (the mail-send job).
      { workers: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await smtp.close();
  });

  /** The next delivered mail whose subject matches, parsed as a mail client would. */
  async function parsedMail(subject: RegExp): Promise<ParsedMail> {
    for (;;) {
      for (const raw of smtp.received) {
        const mail = await simpleParser(raw);
        if (subject.test(mail.subject ?? '')) return mail;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Every address the mail's HTML links to or shows. */
  function addressesIn(mail: ParsedMail): string[] {
    const html = mail.html || '';
    return [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
  }

  it("names a caption task's captions and links to its captions page, in both parts", async () => {
    const user = await signUp(t!.app, 'captioner');
    const row = { ...taskRow(user.userId, 'DONE', 'Librivox reading'), kind: 'caption' };
    await t!.services.notifications.taskChanged(row, true);
    const mail = await parsedMail(/Librivox reading/);
    expect(mail.subject).toBe('Your captions are ready: Librivox reading');
    // multipart/alternative: a plain-text part and an HTML part from one template.
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(mail.text).toContain(`https://moments.test/video/${row.id}/captions`);
    expect(mail.text).not.toMatch(/moments are ready/i);
    const links = addressesIn(mail);
    expect(links).toContain(`https://moments.test/video/${row.id}/captions`);
    for (const link of links)
      expect(link, 'every link is absolute').toMatch(/^https:\/\/moments\.test\//);
    // The unsubscribe footer is in both parts too.
    expect(mail.text).toMatch(/https:\/\/moments\.test\/unsubscribe\//);
    expect(links.some((link) => link.startsWith('https://moments.test/unsubscribe/'))).toBe(true);
  });

  it("leads a moment task's mail to its moments and a failed one to the task list", async () => {
    const user = await signUp(t!.app, 'finder');
    const done = taskRow(user.userId, 'DONE', 'Kitchen show');
    await t!.services.notifications.taskChanged(done, true);
    const ready = await parsedMail(/ready: Kitchen show/);
    expect(addressesIn(ready)).toContain(`https://moments.test/video/${done.id}/moments`);
    await t!.services.notifications.taskChanged(taskRow(user.userId, 'ERROR', 'Broken one'), true);
    const failed = await parsedMail(/failed: Broken one/);
    expect(failed.text).toContain('The link answered 404.');
    expect(addressesIn(failed)).toContain('https://moments.test/library/videoTasks');
  });

  it("shows the video's thumbnail from a signed, expiring address a mail client loads without a session", async () => {
    const user = await signUp(t!.app, 'pictured');
    const row = { ...taskRow(user.userId, 'DONE', 'Pictured show'), kind: 'viral' };
    // A stored picture for the task, as ingest leaves one.
    const { db } = t!.services.database;
    const key = `users/${user.userId}/tasks/${row.id}/thumbnail.jpg`;
    const jpeg = Buffer.from(
      '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
      'base64',
    );
    const file = path.join(t!.dataDir, 'tmp-thumb.jpg');
    await fs.writeFile(file, jpeg);
    await t!.services.storage.putFile(key, file, { move: true });
    await db.insert(tasks).values({
      ...row,
      thumbnailKey: key,
      sourceLang: 'en',
      urlSource: 'link',
    } as typeof tasks.$inferInsert);
    await t!.services.notifications.taskChanged({ ...row, thumbnailKey: key }, true);
    const mail = await parsedMail(/ready: Pictured show/);
    const pictures = [...(mail.html || '').matchAll(/<img[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(pictures).toHaveLength(1);
    const picture = new URL(pictures[0]!.replace(/&amp;/g, '&'));
    expect(picture.origin).toBe('https://moments.test');
    expect(picture.pathname).toBe(`/api/thumbnail/task/${row.id}`);
    const get = (url: string) => t!.app.inject({ method: 'GET', url });
    // No session: the token alone opens it; without it the picture is the owner's only.
    const loaded = await get(picture.pathname + picture.search);
    expect(loaded.statusCode).toBe(200);
    expect(loaded.headers['content-type']).toBe('image/jpeg');
    expect(loaded.rawPayload.equals(jpeg)).toBe(true);
    expect((await get(picture.pathname)).statusCode).toBe(404);
    // A tampered token, or a genuine one for another picture, is no token.
    const sig = picture.searchParams.get('sig')!;
    const tampered = tamperedSignature(sig, sig.indexOf('.') + 1);
    expect((await get(`${picture.pathname}?sig=${tampered}`)).statusCode).toBe(404);
    const other = `/api/thumbnail/task/${crypto.randomUUID()}?sig=${encodeURIComponent(sig)}`;
    expect((await get(other)).statusCode).toBe(404);
    // An expired one says so.
    const old = t!.services.pictureTokens.sign('task', row.id, Date.now() - 40 * 24 * 3600_000);
    const expired = await get(`${picture.pathname}?sig=${encodeURIComponent(old)}`);
    expect(expired.statusCode, expired.body).toBe(403);
    expect(expired.json().code).toBe('FORBIDDEN');
  });

  it('sends receipts with an absolute link to the plan page', async () => {
    const user = await signUp(t!.app, 'payer');
    const checkout = await t!.app.inject({
      method: 'POST',
      url: '/api/subscription/create',
      headers: user.headers,
      payload: { plan: 'vip_month' },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const paid = await t!.app.inject({
      method: 'POST',
      url: new URL(checkout.json().data).pathname,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        number: '4242 4242 4242 4242',
        expiry: '12 / 40',
        cvc: '123',
        name: 'Payer',
      }).toString(),
    });
    expect(paid.statusCode, paid.body).toBeLessThan(400);
    const receipt = await parsedMail(/receipt/);
    expect(receipt.text).toContain('Card ending in 4242');
    expect(addressesIn(receipt)).toContain('https://moments.test/settings/plan');
  });
});
