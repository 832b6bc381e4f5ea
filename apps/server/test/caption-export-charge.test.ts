/**
 * A whole-video caption export is charged by the length of the file it makes: with a sentence
 * cut out or the fillers removed, the started minutes of what is left, not of the video it is cut
 * from. The caption preview says that length (the caption page prices the export from it), and
 * the ledger charges the same number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptionPreview } from '@moments/contract';
import { exportQuote } from '@moments/domain/plans';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf } from './support/credits.js';
import { seedFinishedTask } from './support/fixtures.js';

/** 70 s of talk: two started minutes whole, one once the 12 s sentence in the middle is cut. */
const VIDEO_MS = 70_000;
const WORDS = Array.from({ length: 35 }, (_, i) => ({
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

describe.each(DATABASE_TARGETS)('caption export charges on $name', (target) => {
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

  it('charges the length the cut leaves, as the preview says it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'cutpayer');
    const { taskId } = await seedFinishedTask(t, user.userId, {
      video: '',
      mediaStored: false,
      kind: 'caption',
      title: 'River talk',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { startMs: 0, endMs: 30_000, title: 'Trees' },
    });
    const credits = async () => (await entitlementOf(t.services, user.userId, 'CREDIT')).usage;
    const exportWith = async (options: object) => {
      const preview = await t.app.inject({
        method: 'POST',
        url: '/api/captions/preview',
        headers: user.headers,
        payload: { task_id: taskId, options },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const before = await credits();
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/job',
        headers: user.headers,
        payload: { type: 'ANIMATED_CAPTION_EXPORT', task_id: taskId, options },
      });
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
