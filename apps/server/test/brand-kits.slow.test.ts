/**
 * Brand kits on real files: logos made at test time are uploaded through the API, checked and
 * stored; a real export with a kit, a hook title and TikTok's safe zone is rendered, its pixels
 * read where the logo and the captions should be and its text read back by tesseract. Bad logos,
 * styles and other users' kits are refused with nothing left in the table or in storage.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BrandKit, CaptionPreview, Job } from '@moments/contract';
import { placeLogo } from '@moments/domain/brand-kits';
import { safeRect } from '@moments/domain/platforms';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandKits, users } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask, storedKeys, waitForJob } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const VIDEO_MS = 5000;
const WORDS = [
  { text: 'brand', startMs: 500, endMs: 1200 },
  { text: 'new', startMs: 1500, endMs: 2200 },
  { text: 'logo', startMs: 2500, endMs: 3200 },
];
/** The flat grey of the source picture, so any other colour is what the export added. */
const GREY = 0x40;

let workDir: string;
let sourceVideo: string;
let redLogo: Buffer;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-brand-kits-'));
  sourceVideo = path.join(workDir, 'grey.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `color=c=0x404040:size=640x360:rate=25:duration=${VIDEO_MS / 1000}`],
    ...['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono'],
    ...['-t', String(VIDEO_MS / 1000), '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', sourceVideo],
  ]);
  const logoFile = path.join(workDir, 'red.png');
  await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=red:size=200x100', '-frames:v', '1', logoFile]);
  redLogo = await fs.readFile(logoFile);
});

afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** A multipart body as the browser's FormData sends it: text fields and an optional logo. */
function kitForm(fields: Record<string, string>, logo?: { name: string; bytes: Buffer }) {
  const boundary = `----moments${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (logo) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="${logo.name}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      logo.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The words tesseract reads on the frame of `video` at `atMs`, each with its box in pixels. */
async function ocrBoxes(video: string, atMs: number) {
  const png = path.join(workDir, `ocr-${atMs}-${Math.random().toString(16).slice(2)}.png`);
  // Drawn text (any bright channel: white, yellow, magenta) turned black on white, the grey
  // picture and the half-transparent logo white: what tesseract reads best.
  const bright = "'if(gte(val,180),255,0)'";
  await runFfmpeg([
    ...['-ss', (atMs / 1000).toFixed(3), '-i', video, '-frames:v', '1', '-vf'],
    `format=rgb24,lutrgb=r=${bright}:g=${bright}:b=${bright},format=gray,lut=y='if(gte(val,60),0,255)'`,
    png,
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '11', '-l', 'eng', 'tsv']);
  return stdout
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t'))
    .filter((cells) => cells.length === 12 && cells[11]!.trim() && Number(cells[10]) > 50)
    .map(([, , , , , , left, top, width, height, , text]) => ({
      text: text!.trim(),
      x: Number(left),
      y: Number(top),
      w: Number(width),
      h: Number(height),
    }));
}

/** How many pixels of an RGB frame lie within a small distance of `colour`. */
function pixelsNear(frame: Buffer, [r, g, b]: readonly [number, number, number]) {
  let count = 0;
  for (let at = 0; at < frame.length; at += 3) {
    const distance =
      Math.abs(frame[at]! - r) + Math.abs(frame[at + 1]! - g) + Math.abs(frame[at + 2]! - b);
    if (distance < 60) count++;
  }
  return count;
}

/** The box around every pixel of a 720-wide RGB frame that is not the source's grey. */
function inkBox(frame: Buffer) {
  const box = { left: Infinity, right: -1, top: Infinity, bottom: -1 };
  for (let at = 0; at < frame.length; at += 3) {
    const distance =
      Math.abs(frame[at]! - GREY) +
      Math.abs(frame[at + 1]! - GREY) +
      Math.abs(frame[at + 2]! - GREY);
    if (distance < 40) continue;
    const x = (at / 3) % 720;
    const y = Math.floor(at / 3 / 720);
    box.left = Math.min(box.left, x);
    box.right = Math.max(box.right, x);
    box.top = Math.min(box.top, y);
    box.bottom = Math.max(box.bottom, y);
  }
  return box;
}

/** The RGB of one pixel of the video's frame at `atMs`. */
async function pixelsAt(video: string, atMs: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-ss', (atMs / 1000).toFixed(3), '-i', video],
      ...['-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout as Buffer;
}

describe.each(DATABASE_TARGETS)('brand kits on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const createKit = (
    headers: Record<string, string>,
    fields: Record<string, string>,
    logo?: { name: string; bytes: Buffer },
  ) => {
    const form = kitForm(fields, logo);
    return t.app.inject({
      method: 'POST',
      url: '/api/brand_kit',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  };
  const kitRows = (userId: string) =>
    t.services.database.db.select().from(brandKits).where(eq(brandKits.userId, userId));
  const logoKeys = async (userId: string) =>
    (await storedKeys(t, userId)).filter((key) => key.includes('/brand-kits/'));

  it('exports a styled TikTok clip: kit logo in its corner at its opacity, caption colours, a hook title that goes, all inside the safe zone', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'brand');
    const made = await createKit(
      user.headers,
      {
        name: 'Red corner',
        logo_position: 'bottom_left',
        logo_opacity: '0.5',
        logo_scale: '0.25',
        style: JSON.stringify({ text_color: '#ffee00' }),
      },
      { name: 'logo.png', bytes: redLogo },
    );
    expect(made.statusCode, made.body).toBe(200);
    const kitId = made.json().data.id as string;

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/brand_kit/list',
      headers: user.headers,
    });
    const [kit] = BrandKit.array().parse(list.json().data);
    expect(kit).toMatchObject({
      id: kitId,
      logo_position: 'bottom_left',
      logo_opacity: 0.5,
      style: { text_color: '#ffee00' },
    });
    const logo = await t.app.inject({ method: 'GET', url: kit!.logo_url! });
    expect(logo.statusCode).toBe(200);
    expect(logo.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Grey talk',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { startMs: 0, endMs: VIDEO_MS, title: 'Grey' },
    });
    const options = {
      aspect: '9:16',
      quality: '720p',
      layout: 'fit',
      caption_display: 'none',
      brand_kit_id: kitId,
    };
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/captions/preview',
      headers: user.headers,
      payload: { moment_id: momentId, options },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const placed = CaptionPreview.parse(preview.json().data).logo!;
    const generic = placeLogo({
      frame: { width: 720, height: 1280 },
      logo: { width: 200, height: 100 },
      position: 'bottom_left',
      scale: 0.25,
    });
    expect(placed).toMatchObject({ ...generic, opacity: 0.5, position: 'bottom_left' });
    // The kit used last is remembered for the next clip.
    const [row] = await kitRows(user.userId);
    expect(row!.lastUsedAt).not.toBeNull();

    // On TikTok the same kit keeps the logo inside the safe zone.
    const tiktok = await t.app.inject({
      method: 'POST',
      url: '/api/captions/preview',
      headers: user.headers,
      payload: { moment_id: momentId, options: { ...options, platform: 'tiktok' } },
    });
    const onTiktok = CaptionPreview.parse(tiktok.json().data).logo!;
    const zone = safeRect('tiktok', { width: 720, height: 1280 });
    const expected = placeLogo({
      frame: { width: 720, height: 1280 },
      logo: { width: 200, height: 100 },
      position: 'bottom_left',
      scale: 0.25,
      platform: 'tiktok',
    });
    expect(onTiktok).toMatchObject(expected);
    expect(onTiktok.y + onTiktok.height).toBeLessThanOrEqual(zone.y + zone.h);
    expect(onTiktok.x).toBeGreaterThanOrEqual(zone.x);

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      // The kit's text colour, a highlight and a position chosen over it, a hook title.
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: {
          ...options,
          platform: 'tiktok',
          caption_display: 'source',
          template: 'karaoke',
          style: { highlight_color: '#FF00FF', position_y: 0.5, font_size: 80 },
          hook_title: { text: 'Big brand news', seconds: 1.2 },
        },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const done = await waitForJob(t.app, user.headers, Job.parse(started.json().data).job_id);
    expect(done.error_reason).toBeNull();
    const mp4 = await t.app.inject({ method: 'GET', url: done.file_url! });
    const video = path.join(workDir, `${target.name}-kit.mp4`);
    await fs.writeFile(video, mp4.rawPayload);

    const frame = await pixelsAt(video, 2500);
    const rgb = (x: number, y: number) => {
      const at = (y * 720 + x) * 3;
      return [frame[at]!, frame[at + 1]!, frame[at + 2]!];
    };
    const inside = rgb(expected.x + expected.width / 2, expected.y + expected.height / 2);
    // Outside the logo the frame is the source's grey: the frame without the logo.
    const without = rgb(expected.x + expected.width + 40, expected.y + expected.height / 2);
    const otherCorner = rgb(720 - expected.x - 10, 1280 - expected.y - 10);
    for (const channel of [...without, ...otherCorner])
      expect(Math.abs(channel - GREY)).toBeLessThan(12);
    // Red at half opacity over the grey: (255 + 64) / 2 in red, 64 / 2 in green and blue.
    expect(Math.abs(inside[0]! - (255 + without[0]!) / 2)).toBeLessThan(20);
    expect(Math.abs(inside[1]! - without[1]! / 2)).toBeLessThan(20);
    expect(Math.abs(inside[2]! - without[2]! / 2)).toBeLessThan(20);
    // The logo's edges are where the preview put them.
    const justLeft = rgb(expected.x - 3, expected.y + expected.height / 2);
    expect(Math.abs(justLeft[0]! - GREY)).toBeLessThan(12);
    const justIn = rgb(expected.x + 3, expected.y + 3);
    expect(justIn[0]! - GREY).toBeGreaterThan(60);

    // While "logo" is spoken: the other words in the kit's yellow, the spoken one in magenta.
    expect(pixelsNear(frame, [0xff, 0xee, 0x00])).toBeGreaterThan(300);
    expect(pixelsNear(frame, [0xff, 0x00, 0xff])).toBeGreaterThan(100);
    const early = await pixelsAt(video, 600);
    // Captions, title and logo: nothing drawn outside TikTok's safe zone, early and late.
    for (const shown of [early, frame]) {
      const ink = inkBox(shown);
      expect(ink.left).toBeGreaterThanOrEqual(zone.x);
      expect(ink.right).toBeLessThan(zone.x + zone.w);
      expect(ink.top).toBeGreaterThanOrEqual(zone.y);
      expect(ink.bottom).toBeLessThan(zone.y + zone.h);
    }
    // The title is read in its first seconds, every box of text inside the zone, and gone after.
    const first = await ocrBoxes(video, 600);
    expect(first.map((word) => word.text).join(' ')).toMatch(/Big brand news/i);
    for (const word of [...first, ...(await ocrBoxes(video, 2800))]) {
      expect(word.x, word.text).toBeGreaterThanOrEqual(zone.x);
      expect(word.x + word.w, word.text).toBeLessThanOrEqual(zone.x + zone.w);
      expect(word.y, word.text).toBeGreaterThanOrEqual(zone.y);
      expect(word.y + word.h, word.text).toBeLessThanOrEqual(zone.y + zone.h);
    }
    const later = (await ocrBoxes(video, 2800)).map((word) => word.text).join(' ');
    expect(later).toMatch(/brand new logo/i);
    expect(later).not.toMatch(/news/i);
  });

  it("refuses bad logos, an unsafe SVG, a kit over the plan and another user's kit, storing nothing", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'careful');
    const refused = async (logo: { name: string; bytes: Buffer }, status: number, code: string) => {
      const response = await createKit(user.headers, { name: 'Bad' }, logo);
      expect(response.statusCode, `${logo.name}: ${response.body}`).toBe(status);
      expect(response.json().code).toBe(code);
      expect(await kitRows(user.userId)).toHaveLength(0);
      expect(await logoKeys(user.userId)).toEqual([]);
    };
    await refused(
      { name: 'logo.png', bytes: Buffer.from('this is not a picture at all') },
      422,
      'INVALID_LOGO',
    );
    // Starts like a PNG, then nothing a decoder can read.
    await refused(
      { name: 'logo.png', bytes: Buffer.concat([redLogo.subarray(0, 40), Buffer.alloc(400, 7)]) },
      422,
      'INVALID_LOGO',
    );
    await refused(
      { name: 'huge.png', bytes: Buffer.concat([redLogo, Buffer.alloc(50 * 1024 * 1024)]) },
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const svg = (body: string) =>
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">${body}</svg>`);
    await refused(
      { name: 'logo.svg', bytes: svg('<script>alert(1)</script><rect width="10" height="10"/>') },
      422,
      'INVALID_LOGO',
    );
    await refused(
      {
        name: 'logo.svg',
        bytes: svg(
          '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
        ),
      },
      422,
      'INVALID_LOGO',
    );
    await refused(
      {
        name: 'logo.svg',
        bytes: svg('<image href="http://example.com/x.png" width="10" height="10"/>'),
      },
      422,
      'INVALID_LOGO',
    );
    const badStyle = await createKit(user.headers, { name: 'Bad', style: '{"text_color":"red"}' });
    expect(badStyle.statusCode).toBe(400);
    expect(badStyle.json().code).toBe('VALIDATION_FAILED');
    const badFont = await createKit(
      user.headers,
      { name: 'Bad', style: '{"font_family":"Comic Sans MS"}' },
      { name: 'logo.png', bytes: redLogo },
    );
    expect(badFont.statusCode).toBe(422);
    expect(badFont.json().code).toBe('UNKNOWN_FONT');
    expect(await kitRows(user.userId)).toHaveLength(0);
    expect(await logoKeys(user.userId)).toEqual([]);

    // A plain SVG is drawn server-side and kept as a PNG.
    const drawn = await createKit(
      user.headers,
      { name: 'Drawn', logo_position: 'bottom_right' },
      { name: 'logo.svg', bytes: svg('<rect width="120" height="60" fill="#00ff00"/>') },
    );
    expect(drawn.statusCode, drawn.body).toBe(200);
    const [stored] = await logoKeys(user.userId);
    expect(stored).toMatch(/\.png$/);
    const [row] = await kitRows(user.userId);
    expect(row).toMatchObject({ logoWidth: 120, logoHeight: 60, logoPosition: 'bottom_right' });

    // The free plan keeps one kit; a paid plan keeps more.
    const second = await createKit(
      user.headers,
      { name: 'Second' },
      { name: 'logo.png', bytes: redLogo },
    );
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('BRAND_KIT_LIMIT_REACHED');
    expect(await kitRows(user.userId)).toHaveLength(1);
    expect(await logoKeys(user.userId)).toHaveLength(1);
    await t.services.database.db
      .update(users)
      .set({ currentPlan: 'vip_month' })
      .where(eq(users.id, user.userId));
    expect((await createKit(user.headers, { name: 'Second' })).statusCode).toBe(200);

    // Another user's kit id answers like a missing one, in an export too.
    const intruder = await signUp(t.app, 'intruder');
    const kitId = drawn.json().data.id as string;
    const { momentId } = await seedFinishedTask(t, intruder.userId, {
      video: sourceVideo,
      title: 'Theirs',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { startMs: 0, endMs: VIDEO_MS, title: 'Theirs' },
    });
    const job = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: intruder.headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: { brand_kit_id: kitId },
      },
    });
    expect(job.statusCode).toBe(404);
    const form = kitForm({ name: 'Taken' });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/brand_kit/${kitId}`,
      headers: { ...intruder.headers, ...form.headers },
      payload: form.payload,
    });
    expect(put.statusCode).toBe(404);
    expect((await kitRows(user.userId)).find((kit) => kit.id === kitId)?.name).toBe('Drawn');

    // A change to a font not installed keeps the kit as it was.
    const fontChange = kitForm({ style: '{"font_family":"Comic Sans MS"}' });
    const refusedChange = await t.app.inject({
      method: 'PUT',
      url: `/api/brand_kit/${kitId}`,
      headers: { ...user.headers, ...fontChange.headers },
      payload: fontChange.payload,
    });
    expect(refusedChange.statusCode).toBe(422);
    expect(refusedChange.json().code).toBe('UNKNOWN_FONT');
    expect((await kitRows(user.userId)).find((kit) => kit.id === kitId)?.style).toEqual({});

    // The owner replaces fields and drops the logo; deleting the kit leaves no file.
    const change = kitForm({ name: 'Renamed', remove_logo: 'true', logo_opacity: '0.4' });
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/brand_kit/${kitId}`,
      headers: { ...user.headers, ...change.headers },
      payload: change.payload,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(BrandKit.parse(changed.json().data)).toMatchObject({
      name: 'Renamed',
      logo_url: null,
      logo_opacity: 0.4,
      logo_position: 'bottom_right',
    });
    expect(await logoKeys(user.userId)).toEqual([]);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/brand_kit/${kitId}`,
      headers: user.headers,
    });
    expect(gone.statusCode).toBe(200);
    expect(await kitRows(user.userId)).toHaveLength(1);
  });
});
