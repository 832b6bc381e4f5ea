/**
 * What `POST /api/job` charges, and how it refuses. A whole-video caption export is charged by the
 * length of the file it makes: with a sentence cut out or the fillers removed, the started minutes
 * of what is left, as the caption preview says it (the caption page prices the export from it).
 * A route that charges answers a refused charge with the code the ledger chose for the feature
 * (402 BALANCE_NOT_ENOUGH for credits, 402 EXPORT_LIMIT_REACHED for the plan's exports) and
 * documents it. `POST /api/job` charges credits for a caption video but declared only the export
 * limit, so a user without credits got a 402 its document did not list (a 500 under tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptionPreview } from '@moments/contract';
import { exportQuote } from '@moments/domain/plans';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf, spendAll } from './support/credits.js';
import { seedFinishedTask } from './support/fixtures.js';

const WORDS = ['elephant', 'guitar', 'trombone', 'window'].map((text, index) => ({
  text,
  startMs: index * 500,
  endMs: index * 500 + 400,
}));
const OPTIONS = { aspect: 'original', quality: '720p', template: 'one_word' };

/** 70 s of talk: two started minutes whole, one once the 12 s sentence in the middle is cut. */
const VIDEO_MS = 70_000;
const TALK_WORDS = Array.from({ length: 35 }, (_, i) => ({
  text:
    i === 16
      ? 'um'
      : i % 7 === 6
        ? 'done.'
        : ['we', 'plant', 'trees', 'near', 'the', 'river'][i % 7]!,
  startMs: i * 2000 + 100,
  endMs: i * 2000 + 900,
}));
/** The sentence "we plant trees near the river done." of words 14-20 (28.1 s to 40.9 s). */
const SENTENCE = { start_ms: 28_100, end_ms: 40_900 };

describe.each(DATABASE_TARGETS)('export charges on $name', (target) => {
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

  it('charges the length the cut leaves, as the preview says it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'cutpayer');
    const { taskId } = await seedFinishedTask(t, user.userId, {
      video: '',
      mediaStored: false,
      kind: 'caption',
      title: 'River talk',
      durationMs: VIDEO_MS,
      words: TALK_WORDS,
      moment: { startMs: 0, endMs: 30_000, title: 'Trees' },
    });
    const credits = async () => (await entitlementOf(t.services, user.userId, 'CREDIT')).usage;
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: user.headers, payload });
    const exportWith = async (options: object) => {
      const preview = await post('/api/captions/preview', { task_id: taskId, options });
      expect(preview.statusCode, preview.body).toBe(200);
      const before = await credits();
      const type = 'ANIMATED_CAPTION_EXPORT';
      const started = await post('/api/job', { type, task_id: taskId, options });
      expect(started.statusCode, started.body).toBe(200);
      return {
        previewMs: CaptionPreview.parse(preview.json().data).duration_ms,
        cost: started.json().data.cost_credits as number,
        charged: (await credits()) - before,
      };
    };
    // A fixed frame: the preview needs no probe of the (absent) source.
    const base = { aspect: '9:16', quality: '720p' };

    const whole = await exportWith(base);
    expect(whole.previewMs).toBe(VIDEO_MS);
    // Two started minutes of video, one credit (10 units) each.
    expect(whole).toMatchObject({ cost: 20, charged: 20 });

    const cut = await exportWith({ ...base, cuts: [SENTENCE] });
    expect(cut.previewMs).toBeLessThanOrEqual(60_000);
    expect(cut.previewMs).toBeGreaterThan(55_000);
    expect(cut).toMatchObject({ cost: 10, charged: 10 });
    expect(cut.cost).toBe(exportQuote('ANIMATED_CAPTION_EXPORT', cut.previewMs).amount);

    // Fillers alone (one "um" of 0.8 s and its half-pauses) leave 68 s: still two minutes.
    const fillers = await exportWith({ ...base, remove_fillers: true });
    expect(fillers.previewMs).toBeLessThan(VIDEO_MS);
    expect(fillers.previewMs).toBeGreaterThan(60_000);
    expect(fillers).toMatchObject({ cost: 20, charged: 20 });
  });
});
