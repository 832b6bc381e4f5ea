import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildCaptionsAss,
  CAPTION_TEMPLATES,
  captionFontFiles,
  fontForLanguage,
  measureTextWidth,
  splitIntoWords,
} from './index';

const words = 'Ask not what your country can do for you'.split(' ').map((text, index) => ({
  text,
  startMs: 10_000 + index * 300,
  endMs: 10_000 + index * 300 + 250,
}));

function dialogues(ass: string): string[] {
  return ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
}

describe('buildCaptionsAss', () => {
  it('makes a document on the frame size for every template, with times relative to the clip', () => {
    expect(CAPTION_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    for (const template of CAPTION_TEMPLATES) {
      const ass = buildCaptionsAss({
        words,
        template: template.id,
        display: 'source',
        width: 1080,
        height: 1920,
        offsetMs: 10_000,
      });
      expect(ass).toContain('PlayResX: 1080');
      expect(ass).toContain('PlayResY: 1920');
      const events = dialogues(ass);
      expect(events.length, template.id).toBeGreaterThan(0);
      expect(events[0], template.id).toMatch(/^Dialogue: \d,0:00:00\.00,/);
    }
  });

  it('animates word by word: karaoke timings, one event per word elsewhere', () => {
    const base = { words, display: 'source' as const, width: 720, height: 1280, offsetMs: 10_000 };
    const karaoke = dialogues(buildCaptionsAss({ ...base, template: 'karaoke' })).join('\n');
    expect(karaoke.match(/\\kf25/g)?.length).toBe(words.length);
    const oneWord = dialogues(buildCaptionsAss({ ...base, template: 'one_word' }));
    expect(oneWord).toHaveLength(words.length);
    expect(oneWord[1]).toContain('NOT');
  });

  it('never puts words of two turns on one caption page', () => {
    const base = { words, display: 'source' as const, width: 720, height: 1280, offsetMs: 10_000 };
    // Classic draws a page once per spoken word: the distinct texts are the pages.
    const pageTexts = (ass: string) => [
      ...new Set(
        dialogues(ass).map((line) => line.split(',,0,0,0,,')[1]!.replace(/\{[^}]*\}/g, '')),
      ),
    ];
    const together = pageTexts(buildCaptionsAss({ ...base, template: 'classic' }));
    expect(together).toHaveLength(1);
    // A new speaker starts at "your" (the fourth word, at 10 900 ms).
    const split = pageTexts(
      buildCaptionsAss({ ...base, template: 'classic', turnStartsMs: [10_900] }),
    );
    expect(split).toHaveLength(2);
    expect(split[0]).toMatch(/what$/);
    expect(split[1]).toMatch(/^your/);
  });

  it('breaks lines by measured width within the safe area', () => {
    const long = splitIntoWords(
      'Extraordinary circumstances require internationalization of responsibilities immediately',
    ).map((text, index) => ({ text, startMs: index * 200, endMs: index * 200 + 150 }));
    const ass = buildCaptionsAss({
      words: long,
      template: 'classic',
      display: 'source',
      width: 720,
      height: 1280,
    });
    const size = Number(/Style: Main,Noto Sans,(\d+)/.exec(ass)![1]);
    const safeWidth = 720 * (1 - 2 * 0.08);
    const lines = dialogues(ass).flatMap((event) =>
      event
        .split(',,')
        .at(-1)!
        .replace(/\{[^}]*\}/g, '')
        .split('\\N'),
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(measureTextWidth(line, 'Noto Sans', size)).toBeLessThanOrEqual(safeWidth);
    }
  });

  it('joins Chinese and Thai words without spaces and picks their fonts', () => {
    const chinese = ['大家', '好', '今天'].map((text, index) => ({
      text,
      startMs: index * 300,
      endMs: index * 300 + 250,
    }));
    const ass = buildCaptionsAss({
      words: chinese,
      template: 'classic',
      display: 'source',
      width: 720,
      height: 1280,
      language: 'zh',
    });
    expect(ass).toContain('Style: Main,Noto Sans CJK SC,');
    expect(dialogues(ass)[0]!.replace(/\{[^}]*\}/g, '')).toMatch(/大家好今天$/);
    expect(fontForLanguage('สวัสดีครับ').family).toBe('Noto Sans Thai');
    expect(fontForLanguage('ar').family).toBe('Noto Sans Arabic');
    expect(fontForLanguage('ja').family).toBe('Noto Sans CJK JP');
    expect(fontForLanguage('zh-TW').family).toBe('Noto Sans CJK TC');
  });

  it('switches font for a Latin word inside Arabic captions', () => {
    const mixed = ['أحب', 'iPhone', 'جدا'].map((text, index) => ({
      text,
      startMs: index * 300,
      endMs: index * 300 + 250,
    }));
    const ass = buildCaptionsAss({
      words: mixed,
      template: 'classic',
      display: 'source',
      width: 720,
      height: 1280,
      language: 'ar',
    });
    expect(ass).toContain('Style: Main,Noto Sans Arabic,');
    expect(dialogues(ass)[0]).toMatch(/\{\\fnNoto Sans\\fs\d+[^}]*\}iPhone/);
  });

  it('refuses a translated display without a translation, and escapes override braces', () => {
    expect(() =>
      buildCaptionsAss({
        words,
        template: 'classic',
        display: 'translate',
        width: 720,
        height: 1280,
      }),
    ).toThrow(/translation/);
    const ass = buildCaptionsAss({
      words: [{ text: '{\\fs200}hacked\\N', startMs: 0, endMs: 500 }],
      template: 'classic',
      display: 'source',
      width: 720,
      height: 1280,
    });
    expect(dialogues(ass)[0]).not.toContain('{\\fs200}');
    expect(dialogues(ass)[0]).not.toContain('\\N');
  });

  it('lists installed font files the browser preview can load', () => {
    const files = captionFontFiles();
    const families = files.map((entry) => entry.family);
    for (const family of [
      'Noto Sans',
      'Noto Sans Arabic',
      'Noto Sans Hebrew',
      'Noto Sans Devanagari',
      'Noto Sans Thai',
      'Noto Sans CJK SC',
      'Noto Sans CJK JP',
      'Noto Sans CJK KR',
    ]) {
      expect(families).toContain(family);
    }
    for (const entry of files) expect(existsSync(entry.file)).toBe(true);
  });

  it('measures shaped text: Arabic joining makes words narrower than their letters apart', () => {
    const joined = measureTextWidth('بسم', 'Noto Sans Arabic', 60);
    const apart = ['ب', 'س', 'م'].reduce(
      (sum, letter) => sum + measureTextWidth(letter, 'Noto Sans Arabic', 60),
      0,
    );
    expect(joined).toBeGreaterThan(0);
    expect(joined).toBeLessThan(apart);
  });
});

describe('caption line breaking (no lone words)', () => {
  // Sentences of the kind talks are made of, read without pauses, so pages and lines are cut only
  // for length: where each cut falls is up to the line breaker.
  const SENTENCES = [
    'They laughed so hard at the story that they told me it would have scared me dead.',
    'Pick a deep pot, fill it with good soil and water it well before you plant anything at all.',
    'The secret is sunlight, six hours a day turns a weak seedling into a heavy plant by August.',
    'I asked the driver twice whether the last bus really left at midnight and he only shrugged.',
  ];
  const pagesOf = (sentence: string, template: 'classic' | 'karaoke', width: number) => {
    const timed = sentence
      .split(' ')
      .map((text, index) => ({ text, startMs: index * 280, endMs: index * 280 + 240 }));
    const ass = buildCaptionsAss({
      words: timed,
      template,
      display: 'source',
      width,
      height: 1920,
    });
    return [
      ...new Set(
        dialogues(ass)
          .map((line) =>
            line
              .split(',,0,0,0,,')[1]!
              .replace(/\{[^}]*\}/g, '')
              .split('\\N')
              .map((row) => row.trim().split(/\s+/)),
          )
          .map((lines) => JSON.stringify(lines)),
      ),
    ].map((json) => JSON.parse(json) as string[][]);
  };

  for (const sentence of SENTENCES) {
    it(`leaves no word alone on a line or a page: "${sentence.slice(0, 32)}…"`, () => {
      for (const [template, width] of [
        ['classic', 720],
        ['classic', 1080],
        ['karaoke', 720],
      ] as const) {
        const pages = pagesOf(sentence, template, width);
        expect(pages.length, `${template} ${width}`).toBeGreaterThan(1);
        for (const lines of pages) {
          const count = lines.flat().length;
          expect(count, `a page of one word: ${JSON.stringify(lines)}`).toBeGreaterThan(1);
          if (lines.length > 1 && count > lines.length) {
            for (const line of lines) expect(line.length, JSON.stringify(lines)).toBeGreaterThan(1);
          }
        }
        // Every word is still there, once, in order.
        expect(pages.flat(2).join(' ').toLowerCase()).toBe(sentence.toLowerCase());
      }
    });
  }
});
