/**
 * A route that charges answers a refused charge with the code the ledger chose for the feature
 * (402 BALANCE_NOT_ENOUGH for credits, 402 EXPORT_LIMIT_REACHED for the plan's exports) and
 * documents it. `POST /api/job` charges credits for a caption video but declared only the export
 * limit, so a user without credits got a 402 its document did not list (a 500 under tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { spendAll } from './support/credits.js';
import { seedFinishedTask } from './support/fixtures.js';

const WORDS = ['elephant', 'guitar', 'trombone', 'window'].map((text, index) => ({
  text,
  startMs: index * 500,
  endMs: index * 500 + 400,
}));
const OPTIONS = { aspect: 'original', quality: '720p', template: 'one_word' };

describe.each(DATABASE_TARGETS)('refused charges on $name', (target) => {
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

  it('answers an export the balance cannot cover with its documented 402', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'broke');
    const fixture = {
      video: '',
      mediaStored: false,
      title: 'Interview',
      durationMs: 2_000,
      words: WORDS,
      moment: { startMs: 0, endMs: 2_000, title: 'The band' },
    };
    const caption = await seedFinishedTask(t, user.userId, { ...fixture, kind: 'caption' });
    const viral = await seedFinishedTask(t, user.userId, fixture);
    await spendAll(t.services, user.userId);

    const captionVideo = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: { type: 'ANIMATED_CAPTION_EXPORT', task_id: caption.taskId, options: OPTIONS },
    });
    expect(captionVideo.statusCode, captionVideo.body).toBe(402);
    expect(captionVideo.json().code).toBe('BALANCE_NOT_ENOUGH');

    const clip = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: { type: 'VIRAL_MOMENT_EXPORT', moment_id: viral.momentId, options: OPTIONS },
    });
    expect(clip.statusCode, clip.body).toBe(402);
    expect(clip.json().code).toBe('EXPORT_LIMIT_REACHED');

    // Both are in the document the web and API clients read.
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const declared = JSON.stringify(document.paths['/api/job'].post.responses['402']);
    expect(declared).toContain('BALANCE_NOT_ENOUGH');
    expect(declared).toContain('EXPORT_LIMIT_REACHED');
  });
});
