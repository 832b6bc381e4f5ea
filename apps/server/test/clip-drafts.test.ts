/**
 * The clip editor's drafts: a moment's settings saved as the user edits come back to its owner
 * (another user's moment answers not-found), bad bodies are refused with stable codes, and an
 * export keeps the settings it was made with, for "Edit again". On PGlite and PostgreSQL, with
 * the fake media tools.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ClipSettings } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandKits, clipDrafts } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask } from './support/fixtures.js';

const SETTINGS: ClipSettings = {
  aspect: '1:1',
  quality: '720p',
  template: 'keyword_color',
  layout: 'fit',
  caption_display: 'source',
  target_lang: null,
  start_ms: 1_000,
  end_ms: 20_500,
  transcript_text: 'middle words, edited',
  caption_position: 'top',
  caption_size: 'large',
  remove_fillers: true,
};

describe.each(DATABASE_TARGETS)('clip editor drafts on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let momentId: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { media: new FakeMediaRepository() });
    owner = await signUp(t.app, 'draft-owner');
    stranger = await signUp(t.app, 'draft-stranger');
    const video = path.join(t.dataDir, 'source.mp4');
    await fs.writeFile(video, 'stand-in media: the fake tools never read it');
    ({ momentId } = await seedFinishedTask(t, owner.userId, {
      video,
      title: 'A talk with drafts',
      durationMs: 60_000,
      words: [
        { text: 'first', startMs: 1_000, endMs: 1_500 },
        { text: 'middle', startMs: 10_000, endMs: 10_500 },
        { text: 'last', startMs: 20_000, endMs: 20_500 },
      ],
      moment: { startMs: 1_000, endMs: 20_500, title: 'The moment' },
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const draftCall = (
    method: 'GET' | 'PUT',
    user: { headers: Record<string, string> } | null,
    id: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url: `/api/highlight_moment/draft?id=${encodeURIComponent(id)}`,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('answers null before any save, then gives back exactly what was saved, last save winning', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const before = await draftCall('GET', owner, momentId);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data).toBeNull();

    const first = await draftCall('PUT', owner, momentId, {
      settings: { ...SETTINGS, template: 'karaoke' },
    });
    expect(first.statusCode, first.body).toBe(200);
    const saved = await draftCall('PUT', owner, momentId, { settings: SETTINGS });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ moment_id: momentId, settings: SETTINGS });

    const restored = await draftCall('GET', owner, momentId);
    expect(restored.json().data.settings).toEqual(SETTINGS);
    expect(restored.json().data.updated_at).toBeGreaterThanOrEqual(first.json().data.updated_at);
  });

  it("answers another user's moment, a made-up id and a signed-out caller as the rest of the API does", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const read = await draftCall('GET', stranger, momentId);
    expect(read.statusCode).toBe(404);
    expect(read.json().code).toBe('NOT_FOUND');
    const write = await draftCall('PUT', stranger, momentId, {
      settings: { ...SETTINGS, template: 'classic' },
    });
    expect(write.statusCode).toBe(404);
    expect((await draftCall('GET', owner, 'not-a-moment')).statusCode).toBe(404);
    expect((await draftCall('GET', null, momentId)).statusCode).toBe(401);
    // The owner's draft is untouched by the stranger's attempt.
    expect((await draftCall('GET', owner, momentId)).json().data.settings.template).toBe(
      'keyword_color',
    );
  });

  it('refuses bad bodies with stable codes and keeps the saved draft', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const refusal = async (payload: unknown) => {
      const reply = await draftCall('PUT', owner, momentId, payload);
      return { status: reply.statusCode, code: reply.json().code as string };
    };
    expect(await refusal({})).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refusal({ settings: { ...SETTINGS, aspect: '3:2' } })).toMatchObject({
      status: 400,
    });
    expect(await refusal({ settings: { ...SETTINGS, start_ms: -5 } })).toMatchObject({
      status: 400,
    });
    expect(
      await refusal({ settings: { ...SETTINGS, transcript_text: 'x'.repeat(60_001) } }),
    ).toMatchObject({ status: 400 });
    expect(await refusal({ settings: { ...SETTINGS, template: 'comic_sans' } })).toEqual({
      status: 422,
      code: 'UNKNOWN_TEMPLATE',
    });
    // A caption style: a colour that is not one, a font not installed here.
    expect(
      await refusal({ settings: { ...SETTINGS, style: { text_color: 'red' } } }),
    ).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(
      await refusal({ settings: { ...SETTINGS, style: { highlight_color: '#12345' } } }),
    ).toMatchObject({ status: 400 });
    expect(
      await refusal({ settings: { ...SETTINGS, style: { font_family: 'Comic Sans MS' } } }),
    ).toEqual({ status: 422, code: 'UNKNOWN_FONT' });
    expect(await refusal({ settings: { ...SETTINGS, start_ms: 9_000, end_ms: 9_000 } })).toEqual({
      status: 422,
      code: 'INVALID_RANGE',
    });
    // A body far over what a draft can need is refused before it is read.
    expect(await refusal({ settings: SETTINGS, padding: 'x'.repeat(300 * 1024) })).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect((await draftCall('GET', owner, momentId)).json().data.settings).toEqual(SETTINGS);
  });

  it('keeps a caption style, hook title and platform in the draft; lists the fonts it may name', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const styled: ClipSettings = {
      ...SETTINGS,
      style: { font_family: 'Noto Serif', text_color: '#00FF00', box_color: null, emoji: true },
      hook_title: { text: 'Watch this', seconds: 2 },
      platform: 'tiktok',
    };
    const saved = await draftCall('PUT', owner, momentId, { settings: styled });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await draftCall('GET', owner, momentId)).json().data.settings).toEqual(styled);
    await draftCall('PUT', owner, momentId, { settings: SETTINGS });
    const fonts = await t.app.inject({ method: 'GET', url: '/api/captions/fonts' });
    const families = fonts.json().data as { family: string; scripts: string[] }[];
    expect(families.find((font) => font.family === 'Noto Serif')?.scripts).toContain('Latin');
    expect(families.find((font) => font.family === 'Noto Sans Arabic')?.scripts).toContain(
      'Arabic',
    );
    const templates = await t.app.inject({ method: 'GET', url: '/api/captions/templates' });
    expect(templates.json().data[0].style.font_family).toBe('Noto Sans');
  });

  it("keeps the brand kit chosen in the draft; another user's kit is not found and nothing is saved", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const kitOf = async (userId: string) => {
      const [kit] = await t.services.database.db
        .insert(brandKits)
        .values({
          userId,
          name: 'Kit',
          logoPosition: 'top_right',
          logoOpacity: 0.9,
          logoScale: 0.18,
          style: { text_color: '#FFEE00' },
        })
        .returning();
      return kit!.id;
    };
    const own = await kitOf(owner.userId);
    const theirs = await kitOf(stranger.userId);
    const withKit: ClipSettings = { ...SETTINGS, brand_kit_id: own };
    const saved = await draftCall('PUT', owner, momentId, { settings: withKit });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await draftCall('GET', owner, momentId)).json().data.settings).toEqual(withKit);
    // "No kit" is a choice of its own, kept as such.
    const none = await draftCall('PUT', owner, momentId, {
      settings: { ...SETTINGS, brand_kit_id: null },
    });
    expect(none.json().data.settings.brand_kit_id).toBeNull();
    const foreign = await draftCall('PUT', owner, momentId, {
      settings: { ...SETTINGS, brand_kit_id: theirs },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('NOT_FOUND');
    expect((await draftCall('GET', owner, momentId)).json().data.settings.brand_kit_id).toBeNull();
    await draftCall('PUT', owner, momentId, { settings: SETTINGS });
  });

  it('opens a stored draft that no longer reads as settings as none, instead of failing', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const other = await signUp(t.app, 'draft-old');
    const video = path.join(t.dataDir, 'old.mp4');
    await fs.writeFile(video, 'stand-in media');
    const seeded = await seedFinishedTask(t, other.userId, {
      video,
      title: 'An older draft',
      durationMs: 30_000,
      words: [{ text: 'only', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 500, title: 'Old' },
    });
    // Saved before a setting existed: the row lacks it.
    const { remove_fillers: _gone, ...older } = SETTINGS;
    await t.services.database.db
      .insert(clipDrafts)
      .values({ userId: other.userId, momentId: seeded.momentId, settings: older });
    const read = await draftCall('GET', other, seeded.momentId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toBeNull();
    const saved = await draftCall('PUT', other, seeded.momentId, { settings: SETTINGS });
    expect(saved.json().data.settings).toEqual(SETTINGS);
  });

  it('keeps the settings an export was made with, for its owner only', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { transcript_text: _text, target_lang: _lang, ...options } = SETTINGS;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: owner.headers,
      payload: { type: 'VIRAL_MOMENT_EXPORT', moment_id: momentId, options },
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = started.json().data.job_id as string;
    // The draft changes afterwards; the export keeps its own settings.
    await draftCall('PUT', owner, momentId, {
      settings: { ...SETTINGS, template: 'karaoke', quality: '1080p' },
    });
    const kept = await t.app.inject({
      method: 'GET',
      url: `/api/job/${jobId}/settings`,
      headers: owner.headers,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toEqual({ ...SETTINGS, transcript_text: null, brand_kit_id: null });

    const stranger404 = await t.app.inject({
      method: 'GET',
      url: `/api/job/${jobId}/settings`,
      headers: stranger.headers,
    });
    expect(stranger404.statusCode).toBe(404);
  });
});
