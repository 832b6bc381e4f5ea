/**
 * Real renders: captions burned into a plain video by ffmpeg + libass, frames read back and OCR'd
 * with tesseract, so what is checked is what a viewer would see.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeRect } from '@moments/domain/platforms';
import { runFfmpeg, runFfprobe } from '../ffmpeg/index';
import {
  buildCaptionsAss,
  burnCaptions,
  CAPTION_TEMPLATES,
  captionsFilter,
  splitIntoWords,
  type CaptionWord,
  type BuildCaptionsInput,
} from './index';

const run = promisify(execFile);
const WIDTH = 720;
const HEIGHT = 1280;
const BACKGROUND = [0x20, 0x30, 0x60] as const;
const DURATION_S = 4;

let dir: string;
let background: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'captions-test-'));
  background = join(dir, 'background.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=c=0x203060:s=${WIDTH}x${HEIGHT}:d=${DURATION_S}:r=25`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${DURATION_S}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    background,
  ]);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Words of `text` spoken one after another from `firstMs`, each `stepMs` apart. */
function timedWords(
  text: string,
  firstMs: number,
  stepMs: number,
  language?: string,
): CaptionWord[] {
  return splitIntoWords(text, language).map((word, index) => ({
    text: word,
    startMs: firstMs + index * stepMs,
    endMs: firstMs + index * stepMs + stepMs - 40,
  }));
}

let assCounter = 0;
async function writeAss(
  input: Omit<BuildCaptionsInput, 'width' | 'height'>,
  folder = dir,
): Promise<string> {
  const path = join(folder, `captions-${assCounter++}.ass`);
  await writeFile(path, buildCaptionsAss({ width: WIDTH, height: HEIGHT, ...input }));
  return path;
}

/** The frame shown at `atMs` with the captions drawn by libass, as raw RGB. */
async function captionedFrame(assPath: string, atMs: number): Promise<Buffer> {
  const raw = join(dir, `frame-${assCounter++}.rgb`);
  await runFfmpeg([
    '-i',
    background,
    '-ss',
    (atMs / 1000).toFixed(3),
    '-frames:v',
    '1',
    '-vf',
    captionsFilter(assPath),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    raw,
  ]);
  return readFile(raw);
}

/** Bounding box of every pixel that is not the background colour (undefined when none). */
function inkBox(
  rgb: Buffer,
): { left: number; right: number; top: number; bottom: number; pixels: number } | undefined {
  let left = WIDTH;
  let right = -1;
  let top = HEIGHT;
  let bottom = -1;
  let pixels = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const offset = (y * WIDTH + x) * 3;
      const distance =
        Math.abs(rgb[offset]! - BACKGROUND[0]) +
        Math.abs(rgb[offset + 1]! - BACKGROUND[1]) +
        Math.abs(rgb[offset + 2]! - BACKGROUND[2]);
      if (distance < 40) continue;
      pixels++;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return pixels > 0 ? { left, right, top, bottom, pixels } : undefined;
}

/** Text tesseract reads in the captions band of `video` at `atMs`. */
async function readCaptionsAt(video: string, atMs: number, language: string): Promise<string> {
  const png = join(dir, `ocr-${assCounter++}.png`);
  // Light text on a dark background OCRs best as dark text on light: grey and invert.
  await runFfmpeg([
    '-i',
    video,
    '-ss',
    (atMs / 1000).toFixed(3),
    '-frames:v',
    '1',
    '-vf',
    `crop=${WIDTH}:${Math.round(HEIGHT * 0.45)}:0:${Math.round(HEIGHT * 0.45)},format=gray,negate`,
    png,
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', language]);
  return stdout.replace(/\s+/g, language === 'eng' ? ' ' : '').trim();
}

async function burn(input: Omit<BuildCaptionsInput, 'width' | 'height'>): Promise<string> {
  const output = join(dir, `burned-${assCounter++}.mp4`);
  await burnCaptions(background, await writeAss(input), output, { preset: 'ultrafast' });
  return output;
}

async function probe(video: string): Promise<{ width: number; height: number; durationS: number }> {
  const json = JSON.parse(
    await runFfprobe(['-v', 'error', '-show_streams', '-show_format', '-of', 'json', video]),
  ) as {
    streams: { codec_type: string; width?: number; height?: number }[];
    format: { duration: string };
  };
  const videoStream = json.streams.find((stream) => stream.codec_type === 'video')!;
  return {
    width: videoStream.width!,
    height: videoStream.height!,
    durationS: Number(json.format.duration),
  };
}

/** Share of `expected` characters found in `actual`, in order (longest common subsequence). */
function recognisedShare(expected: string, actual: string): number {
  const a = [...expected.replace(/\s+/g, '')];
  const b = [...actual.replace(/\s+/g, '')];
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const charA of a) {
    const current = [0];
    for (let j = 0; j < b.length; j++) {
      current.push(charA === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!));
    }
    previous = current;
  }
  return previous[b.length]! / a.length;
}

describe('burned captions', () => {
  it('shows each word while it is spoken and not before (one_word)', async () => {
    const words = timedWords('Hello brave world', 300, 1000);
    const video = await burn({ words, template: 'one_word', display: 'source', language: 'en' });

    expect(await readCaptionsAt(video, 800, 'eng')).toContain('HELLO');
    const during = await readCaptionsAt(video, 1700, 'eng');
    expect(during).toContain('BRAVE');
    expect(during).not.toContain('HELLO');
    // Just before "world" starts it is not on screen yet.
    expect(await readCaptionsAt(video, 2150, 'eng')).not.toContain('WORLD');
    expect(await readCaptionsAt(video, 2600, 'eng')).toContain('WORLD');
    // Nothing is drawn before the first word.
    expect(await readCaptionsAt(video, 100, 'eng')).not.toMatch(/HELLO|BRAVE|WORLD/);
  });

  it('keeps spoken words and hides upcoming ones (pop_in); burning keeps size and length', async () => {
    const words = timedWords('Moments makes clips', 200, 1000);
    const video = await burn({ words, template: 'pop_in', display: 'source', language: 'en' });

    const second = await readCaptionsAt(video, 1600, 'eng');
    expect(second).toContain('MOMENTS');
    expect(second).toContain('MAKES');
    expect(second).not.toContain('CLIPS');
    expect(await readCaptionsAt(video, 2700, 'eng')).toContain('CLIPS');

    const burned = await probe(video);
    const source = await probe(background);
    expect([burned.width, burned.height]).toEqual([WIDTH, HEIGHT]);
    expect(Math.abs(burned.durationS - source.durationS)).toBeLessThan(0.1);
  });

  it('renders Arabic right to left with joined letters, readable by OCR', async () => {
    const text = 'مرحبا بكم في هذا الفيديو';
    const video = await burn({
      words: timedWords(text, 100, 300, 'ar'),
      template: 'classic',
      display: 'source',
      language: 'ar',
      // A creator's style: another Latin family, colours, a box; Arabic keeps its own font.
      style: { font_family: 'Noto Serif', text_color: '#FFE000', box_color: '#000000B0' },
    });
    // Tesseract reads joined, right-to-left Arabic only if libass shaped it properly.
    const read = await readCaptionsAt(video, 2000, 'ara');
    expect(recognisedShare(text, read)).toBeGreaterThan(0.8);
  });

  it('renders Chinese without missing-glyph boxes, breaking on transcript words', async () => {
    const text = '大家好今天我们来聊人工智能';
    const video = await burn({
      words: timedWords(text, 100, 200, 'zh'),
      template: 'classic',
      display: 'source',
      language: 'zh',
      style: { font_family: 'Noto Serif Display', text_color: '#FFE000', outline_width: 6 },
    });
    const read = await readCaptionsAt(video, 2000, 'chi_sim');
    expect(recognisedShare(text, read)).toBeGreaterThan(0.8);
  });

  it('stacks source and translation in display "all", and shows only the translation in "translate"', async () => {
    const words = timedWords('Good morning everyone', 200, 500);
    const translationLines = [{ text: 'Bonjour tout le monde', startMs: 200, endMs: 1700 }];
    const both = await burn({
      words,
      translationLines,
      template: 'classic',
      display: 'all',
      language: 'en',
    });
    const shown = await readCaptionsAt(both, 1500, 'eng');
    expect(shown).toContain('everyone');
    expect(shown).toContain('Bonjour');
    expect(shown.indexOf('everyone')).toBeLessThan(shown.indexOf('Bonjour')); // source on top

    const translated = await burn({
      words,
      translationLines,
      template: 'classic',
      display: 'translate',
      language: 'en',
    });
    const onlyTranslation = await readCaptionsAt(translated, 1500, 'eng');
    expect(onlyTranslation).toContain('monde');
    expect(onlyTranslation).not.toContain('morning');
  });
});

describe('a styled clip', () => {
  it('draws the chosen colours, a colour emoji, a hook title that goes, all inside the TikTok safe zone', async () => {
    const safe = safeRect('tiktok', { width: WIDTH, height: HEIGHT });
    const ass = await writeAss({
      words: timedWords('we launched the rocket today', 300, 1000),
      template: 'karaoke',
      display: 'source',
      language: 'en',
      style: { text_color: '#FFE000', highlight_color: '#FF00FF', emoji: true, position_y: 0.95 },
      hookTitle: { text: 'Watch this launch', seconds: 2 },
      safeArea: safe,
    });
    const near = (rgb: Buffer, [r, g, b]: [number, number, number]) => {
      let count = 0;
      for (let at = 0; at < rgb.length; at += 3) {
        const d = Math.abs(rgb[at]! - r) + Math.abs(rgb[at + 1]! - g) + Math.abs(rgb[at + 2]! - b);
        if (d < 60) count++;
      }
      return count;
    };
    const early = await captionedFrame(ass, 1150);
    // The words not yet spoken are in the text colour, the spoken one in the highlight colour.
    expect(near(early, [0xff, 0xe0, 0x00])).toBeGreaterThan(300);
    expect(near(early, [0xff, 0x00, 0xff])).toBeGreaterThan(100);
    const late = await captionedFrame(ass, 2600);
    // The rocket's own blue and red: drawn in colour, not a one-colour glyph or a tofu box.
    expect(near(late, [0x55, 0xac, 0xee])).toBeGreaterThan(50);
    expect(near(late, [0xa0, 0x04, 0x1e])).toBeGreaterThan(20);
    for (const frame of [early, late]) {
      const ink = inkBox(frame)!;
      expect(ink.left).toBeGreaterThanOrEqual(safe.x);
      expect(ink.right).toBeLessThan(safe.x + safe.w);
      expect(ink.top).toBeGreaterThanOrEqual(safe.y);
      expect(ink.bottom).toBeLessThan(safe.y + safe.h);
    }
    // The title is read in its seconds at the top, and gone after them.
    const video = join(dir, `styled-${assCounter++}.mp4`);
    await burnCaptions(background, ass, video, { preset: 'ultrafast' });
    expect(await readTopAt(video, 600)).toMatch(/Watch this launch/i);
    expect(await readTopAt(video, 3000)).not.toMatch(/Watch|launch/i);
  });
});

/** Text tesseract reads in the top 40 % of the frame of `video` at `atMs`. */
async function readTopAt(video: string, atMs: number): Promise<string> {
  const png = join(dir, `ocr-top-${assCounter++}.png`);
  await runFfmpeg([
    '-i',
    video,
    '-ss',
    (atMs / 1000).toFixed(3),
    '-frames:v',
    '1',
    '-vf',
    `crop=${WIDTH}:${Math.round(HEIGHT * 0.4)}:0:0,format=gray,negate`,
    png,
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', 'eng']);
  return stdout.replace(/\s+/g, ' ').trim();
}

describe('caption frames', () => {
  it('every template is accepted by libass, draws while words are spoken and clears after', async () => {
    const words = timedWords('Every template draws these words', 200, 250);
    for (const template of CAPTION_TEMPLATES) {
      const ass = await writeAss({
        words,
        template: template.id,
        display: 'source',
        language: 'en',
      });
      expect(inkBox(await captionedFrame(ass, 900)), template.id).toBeDefined();
      expect(inkBox(await captionedFrame(ass, 3500)), template.id).toBeUndefined();
    }
  });

  it('display "none" draws nothing', async () => {
    const ass = await writeAss({
      words: timedWords('Nothing to see', 0, 500),
      template: 'karaoke',
      display: 'none',
    });
    expect(inkBox(await captionedFrame(ass, 600))).toBeUndefined();
  });

  it('never draws outside the safe width, whatever the script', async () => {
    const samples: [string, string][] = [
      [
        'en',
        'Supercalifragilisticexpialidocious internationalization responsibilities extraordinarily',
      ],
      ['de', 'Donaudampfschifffahrtsgesellschaftskapitän Rechtsschutzversicherungsgesellschaften'],
      ['ar', 'الاستراتيجيات الاقتصادية والاجتماعية المستدامة للمجتمعات'],
      ['hi', 'अंतर्राष्ट्रीयकरण प्रौद्योगिकीविदों आत्मनिर्भरता'],
      ['th', 'ความรับผิดชอบต่อสังคมและสิ่งแวดล้อมอย่างยั่งยืน'],
      ['ja', '国際化対応のソフトウェア開発について説明します'],
    ];
    const margin = Math.round(WIDTH * 0.08);
    for (const [language, text] of samples) {
      // one_word squeezes words wider than the frame; keyword_color breaks long lines in two.
      const templates = ['en', 'de', 'ar'].includes(language)
        ? (['one_word', 'keyword_color'] as const)
        : (['keyword_color'] as const);
      for (const template of templates) {
        const words = timedWords(text, 0, 700, language);
        const ass = await writeAss({ words, template, display: 'source', language });
        const box = inkBox(await captionedFrame(ass, 350));
        expect(box, `${language} ${template}`).toBeDefined();
        expect(box!.left, `${language} ${template}`).toBeGreaterThanOrEqual(margin - 2);
        expect(box!.right, `${language} ${template}`).toBeLessThanOrEqual(WIDTH - margin + 2);
      }
    }
  });

  it("stays readable on a phone and clear of the short-video apps' bottom and right overlays", async () => {
    // TikTok, Reels and Shorts put their buttons in the right ~12% from mid-height down, and the
    // caption, account and music lines in the bottom ~20%.
    const words = timedWords(
      'Here is what nobody tells you about saving money every month',
      0,
      250,
    );
    const boxes: Record<string, NonNullable<ReturnType<typeof inkBox>>> = {};
    for (const [name, position, sizeScale] of [
      ['bottom', 'bottom', 1],
      ['top', 'top', 1],
      ['small', 'bottom', 0.85],
      ['large', 'bottom', 1.2],
    ] as const) {
      const ass = await writeAss({
        words,
        template: 'karaoke',
        display: 'source',
        position,
        sizeScale,
      });
      boxes[name] = inkBox(await captionedFrame(ass, 600))!;
      expect(boxes[name], name).toBeDefined();
      expect(boxes[name]!.right, name).toBeLessThanOrEqual(WIDTH * 0.85 + 2);
      expect(boxes[name]!.bottom, name).toBeLessThanOrEqual(HEIGHT * 0.8);
      expect(boxes[name]!.left, name).toBeGreaterThanOrEqual(WIDTH * 0.08 - 2);
    }
    // Two lines of the house size take over 7% of the frame height: on a 6-inch 9:16 phone
    // (a 133 mm tall picture) each line's letters are over 4 mm tall.
    expect(boxes.bottom!.bottom - boxes.bottom!.top).toBeGreaterThan(HEIGHT * 0.07);
    expect(boxes.top!.bottom).toBeLessThan(HEIGHT * 0.35);
    expect(boxes.large!.bottom - boxes.large!.top).toBeGreaterThan(
      boxes.small!.bottom - boxes.small!.top,
    );
  });

  it('reads an ASS file whose path has spaces, quotes, colons and commas', async () => {
    const awkward = join(dir, "it's a: [strange], folder; really");
    await mkdir(awkward, { recursive: true });
    const ass = await writeAss(
      { words: timedWords('Escaped path', 0, 500), template: 'classic', display: 'source' },
      awkward,
    );
    expect(inkBox(await captionedFrame(ass, 300))).toBeDefined();
  });
});
