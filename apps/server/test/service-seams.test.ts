/**
 * What `createServices` takes instead of what the config makes: the speech engine, the LLM, the
 * file storage, the mail transport and the clock. Each stand-in is driven through the API, and what
 * is checked is what a user would see: the words the engine heard in the task's transcript, the
 * LLM's title on the moment, the uploaded file served back, the welcome mail, a session that ends.
 * On PGlite and PostgreSQL, with the fake media tools.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpeechEngine, Transcript } from '@moments/ai/asr';
import type { LlmClient, LlmMessage } from '@moments/ai/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.js';
import type { Mailer, MailMessage } from '../src/modules/mail/index.js';
import { LocalStorage } from '../src/storage/index.js';
import { DATABASE_TARGETS } from './support/databases.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';

const SENTENCES = [
  'Nobody tells you that the first year of running a bakery is mostly about the oven.',
  'We burned four hundred loaves before we understood how the heat moved.',
  'Then one morning a customer cried because the bread tasted like her grandmother made it.',
  'That was the moment I knew we would never close the shop.',
  'People ask me for the secret and the secret is patience with the dough.',
  'You cannot rush fermentation no matter how many orders are waiting.',
  'The worst day was the flood, when the cellar filled with water overnight.',
  'Our neighbours carried sacks of flour up the stairs at five in the morning.',
  'I still think about how a whole street saved a small business.',
  'If you want to start something, start small and learn every single step.',
  'Money matters less than the people who show up when things go wrong.',
  'Every loaf we sell today carries a little of that flood morning in it.',
];

/** Twelve sentences, five seconds each, every word timed: what a real engine would return. */
function heardTranscript(): Transcript {
  const segments = SENTENCES.map((text, i) => {
    const startMs = i * 5000;
    const words = text.split(' ');
    const step = Math.floor(4800 / words.length);
    return {
      startMs,
      endMs: startMs + words.length * step,
      text,
      words: words.map((word, w) => ({
        text: word,
        startMs: startMs + w * step,
        endMs: startMs + (w + 1) * step,
        confidence: 0.95,
      })),
    };
  });
  return { language: 'en', durationMs: SENTENCES.length * 5000, segments };
}

/** A speech engine that hears the set transcript in any file. */
class ScriptedSpeech implements SpeechEngine {
  readonly name = 'scripted';
  heard = 0;
  async transcribe(): Promise<Transcript> {
    this.heard++;
    return heardTranscript();
  }
}

/** An LLM that, asked to judge moment candidates, picks the first with its own title. */
class EditorLlm implements LlmClient {
  async complete(messages: LlmMessage[]): Promise<string> {
    const asked = messages.at(-1)?.content ?? '';
    if (!asked.includes('candidate clips')) throw new Error('this stand-in only judges moments');
    return JSON.stringify({
      moments: [{ id: 0, score: 97, title: 'The flood that saved the bakery' }],
    });
  }
}

/** A mail transport that keeps what it is handed. */
class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** A clock a test moves forward. */
class ManualClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

describe.each(DATABASE_TARGETS)('the service seams on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let filesDir: string;
  const speech = new ScriptedSpeech();
  const mail = new MemoryMailer();
  const clock = new ManualClock();
  const media = new FakeMediaRepository();
  media.info = { ...media.info, durationMs: SENTENCES.length * 5000 };

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    filesDir = await fs.mkdtemp(path.join(process.env.TMPDIR ?? '/tmp', 'moments-seam-files-'));
    t = await startTestApp(
      await target.open(),
      // The fake tools analyse no faces: no background framing after a task.
      { FRAMING_PREPARE_MOMENTS: '0' },
      {
        workers: true,
        media,
        speech,
        llm: new EditorLlm(),
        storage: new LocalStorage(filesDir),
        mailTransport: mail,
        clock,
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    if (filesDir) await fs.rm(filesDir, { recursive: true, force: true });
  });

  it("shows the engine's words as the transcript and the LLM's title on the best moment", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'baker');
    const taskId = await uploadAndStartTask(t.app, user.headers, {
      name: 'bakery.mp4',
      content: Buffer.from('stand-in video: the fake tools never read it'),
    });
    const task = await waitForTask(t.app, user.headers, taskId, 60_000);
    expect(task.status, JSON.stringify(task)).toBe('DONE');
    expect(speech.heard).toBeGreaterThan(0);

    const transcript = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task/transcript?id=${taskId}`,
      headers: user.headers,
    });
    expect(transcript.statusCode, transcript.body).toBe(200);
    const segments = transcript.json().data.segments as { text: string }[];
    expect(segments.map((segment) => segment.text).join(' ')).toContain(
      'a whole street saved a small business',
    );

    const moments = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/list?task_id=${taskId}`,
      headers: user.headers,
    });
    expect(moments.statusCode, moments.body).toBe(200);
    expect(moments.json().data[0].title).toBe('The flood that saved the bakery');
  });

  it('keeps an upload in the given storage, not in DATA_DIR', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'uploader');
    const content = Buffer.from('the bytes of an uploaded video');
    const taskId = await uploadAndStartTask(t.app, user.headers, { name: 'clip.mp4', content });
    const stored = await fs.readdir(filesDir, { recursive: true });
    const kept = [];
    for (const name of stored) {
      const file = path.join(filesDir, name);
      if ((await fs.stat(file)).isFile() && (await fs.readFile(file)).equals(content))
        kept.push(name);
    }
    expect(kept, `files under ${filesDir}: ${stored.join(', ')}`).toHaveLength(1);
    expect(await fs.stat(path.join(t.dataDir, 'files')).catch(() => null)).toBeNull();
    await waitForTask(t.app, user.headers, taskId, 60_000);
  });

  it('hands the welcome mail to the given transport', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'newcomer');
    const welcome = mail.sent.filter((message) => message.to === user.email);
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.subject).toMatch(/welcome/i);
    expect(await fs.stat(path.join(t.dataDir, 'outbox')).catch(() => null)).toBeNull();
  });

  it('ends a session once the clock passes its lifetime', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'sleeper');
    const info = () =>
      t.app.inject({ method: 'GET', url: '/api/user/info', headers: user.headers });
    expect((await info()).statusCode).toBe(200);
    clock.advance(t.config.SESSION_TTL_DAYS * 86_400_000 - 60_000);
    expect((await info()).statusCode).toBe(200);
    clock.advance(120_000);
    const expired = await info();
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('UNAUTHORIZED');
  });
});
