import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxMailer, type OutboxEntry } from '../src/mail/index.js';
import { connectStompClient, waitFor } from '../src/realtime/stomp-test-kit.js';
import type { TaskRow } from '../src/modules/tasks/task-mapper.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

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
    for (const bad of [forged, `${token.slice(0, -2)}xx`, 'garbage', `${payload}.`]) {
      const refused = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${bad}` });
      expect(refused.statusCode, bad).toBe(400);
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
    expect(anonymousWithoutEmail.statusCode).toBe(400);
    const operatorMails = await mailsTo('operator@moments.test', 'operator');
    const mine = operatorMails.find((mail) => mail.subject === `Feedback from ${user.email}`);
    expect(mine?.text).toContain('bigger font option');
    expect(mine?.text).not.toContain('/unsubscribe/');
  });
});

describe('SMTP transport', () => {
  let smtp: SMTPServer;
  let port = 0;
  const received: string[] = [];
  let t: TestApp | undefined;

  beforeAll(async () => {
    smtp = new SMTPServer({
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
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers a real message with the unsubscribe header to an SMTP server', async () => {
    const pglite = DATABASE_TARGETS.find((candidate) => candidate.name === 'pglite')!;
    t = await startTestApp(await pglite.open(), {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Moments <mail@moments.test>',
      PUBLIC_URL: 'https://moments.test',
    });
    const user = await signUp(t.app, 'smtp');
    await waitFor(() => received.length === 1, 'the SMTP delivery');
    const raw = received[0]!;
    expect(raw).toMatch(/^Subject: Welcome to Moments/m);
    expect(raw).toMatch(new RegExp(`^To: ${user.email}`, 'm'));
    expect(raw).toMatch(/^From: Moments <mail@moments\.test>/m);
    expect(raw).toMatch(/^List-Unsubscribe:\s+<https:\/\/moments\.test\/api\/unsubscribe\//m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  });
});
