import emojibase from 'emojibase-data/en/data.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { safeRect } from '@moments/domain/platforms';
import { buildCaptionsAss } from './build';
import { EMOJI_WORDS, emojiForLine, emojiLayers } from './emoji';
import { effectiveCaptionStyle, mergeCaptionStyles, templateCaptionStyle } from './style';

const words = (text: string, gap = 300) =>
  text
    .split(' ')
    .map((word, index) => ({ text: word, startMs: index * gap, endMs: index * gap + gap - 20 }));

describe('caption style resolution', () => {
  it('layers a kit style and the export style over the template, field by field', () => {
    const kit = { text_color: '#112233', box_color: '#000000CC', font_size: 90 };
    const own = { text_color: '#445566', box_color: null, emoji: true };
    const style = effectiveCaptionStyle('karaoke', kit, own);
    expect(style.text_color).toBe('#445566');
    expect(style.box_color).toBeNull();
    expect(style.font_size).toBe(90);
    expect(style.emoji).toBe(true);
    expect(style.highlight_color).toBe(templateCaptionStyle('karaoke').highlight_color);
    expect(mergeCaptionStyles(undefined, { uppercase: undefined }, null)).toEqual({});
  });

  it('gives every template its own starting values; keyword colour emphasises key words', () => {
    expect(templateCaptionStyle('keyword_color').emphasis).toBe('keywords');
    expect(templateCaptionStyle('karaoke').emphasis).toBe('none');
    expect(templateCaptionStyle('one_word').font_size).toBeGreaterThan(
      templateCaptionStyle('classic').font_size,
    );
  });

  it('draws the chosen font, colours and box, and refuses a font not installed', () => {
    const ass = buildCaptionsAss({
      words: words('the rocket launched at 9 tonight'),
      template: 'classic',
      display: 'source',
      width: 720,
      height: 1280,
      language: 'en',
      style: { font_family: 'Noto Serif', text_color: '#00FF00', box_color: '#FF000080' },
    });
    const main = ass.split('\n').find((line) => line.startsWith('Style: Main,'))!;
    expect(main).toContain('Noto Serif');
    // Green text (&HAABBGGRR), a half-transparent red box drawn as BorderStyle 3.
    expect(main).toContain('&H0000FF00');
    expect(main).toContain('&H7F0000FF');
    expect(() =>
      buildCaptionsAss({
        words: words('hello there'),
        template: 'classic',
        display: 'source',
        width: 720,
        height: 1280,
        style: { font_family: 'Comic Sans MS' },
      }),
    ).toThrow(/not an installed caption font/);
  });

  it('keeps captions and the hook title inside the safe area and ends the title on time', () => {
    const safe = safeRect('tiktok', { width: 720, height: 1280 });
    const ass = buildCaptionsAss({
      words: words('this is the one thing nobody tells you about money'),
      template: 'karaoke',
      display: 'source',
      width: 720,
      height: 1280,
      style: { position_y: 0.98, font_size: 120 },
      hookTitle: { text: 'Nobody tells you this', seconds: 2 },
      safeArea: safe,
    });
    const main = ass
      .split('\n')
      .find((line) => line.startsWith('Style: Main,'))!
      .split(',');
    const marginV = Number(main[main.length - 2]);
    expect(1280 - marginV).toBeLessThanOrEqual(safe.y + safe.h);
    expect(Number(main[main.length - 4])).toBeGreaterThanOrEqual(safe.x);
    const title = ass.split('\n').find((line) => line.includes(',Title,'))!;
    expect(title).toContain('0:00:00.00,0:00:02.00');
    const [, y] = /\\pos\((\d+),(\d+)\)/.exec(title)!.slice(1).map(Number) as [number, number];
    expect(y).toBeGreaterThanOrEqual(safe.y);
  });
});

describe('emoji mapping', () => {
  const line = (text: string) =>
    text.split(' ').map((word, index) => ({ text: word, sentenceStart: index === 0 }));

  it('picks one emoji where a word of the line means it, never on names or numbers', () => {
    expect(emojiForLine(line('I really love this'))?.emoji).toBe('❤️');
    expect(emojiForLine(line('we made so much money'))?.emoji).toBe('💰');
    expect(emojiForLine(line('Money is not everything'))?.emoji).toBe('💰');
    expect(emojiForLine(line('ask Mr Love about it'))).toBeUndefined();
    expect(emojiForLine(line('we went to Phoenix'))).toBeUndefined();
    expect(emojiForLine(line('it took 3 years'))).toBeUndefined();
    expect(emojiForLine(line('and then we talked'))).toBeUndefined();
  });

  it('maps only real emoji whose own keywords share the meaning, each drawable in colour', () => {
    const byEmoji = new Map(emojibase.map((entry) => [entry.emoji.replace(/\uFE0F/g, ''), entry]));
    for (const { emoji, words: forms } of EMOJI_WORDS) {
      const entry = byEmoji.get(emoji.replace(/\uFE0F/g, ''));
      expect(entry, emoji).toBeDefined();
      const vocabulary = `${entry!.label} ${(entry!.tags ?? []).join(' ')}`.toLowerCase();
      expect(
        forms.some((form) => vocabulary.includes(form.slice(0, 4))),
        `${emoji} (${vocabulary}) for ${forms.join(', ')}`,
      ).toBe(true);
      const layers = emojiLayers(emoji);
      expect(layers.length).toBeGreaterThan(0);
      // Drawn in its own colours, not in the captions' text colour.
      expect(layers.some((layer) => !['#000000', '#FFFFFF'].includes(layer.color))).toBe(true);
    }
  });

  it('puts at most one emoji on each caption line', () => {
    const ass = buildCaptionsAss({
      words: words('I love money and pizza and coffee and my dog and music'),
      template: 'karaoke',
      display: 'source',
      width: 720,
      height: 1280,
      style: { emoji: true, max_words_per_line: 3 },
    });
    const emojiEvents = ass.split('\n').filter((row) => row.includes(',Emoji,'));
    expect(emojiEvents.length).toBeGreaterThan(0);
    // One emoji is several drawings (one per colour) at one place: count the places.
    const places = new Set(
      emojiEvents.map((row) => `${row.split(',')[1]}|${/\\pos\(([^)]*)\)/.exec(row)![1]}`),
    );
    const pages = new Set(
      ass
        .split('\n')
        .filter((row) => row.includes(',Main,'))
        .map((row) => row.split(',')[1]),
    );
    expect(places.size).toBeLessThanOrEqual(pages.size * 3);
    const perLineY = new Map<string, Set<string>>();
    for (const row of emojiEvents) {
      const [x, y] = /\\pos\((\d+),(\d+)\)/.exec(row)!.slice(1);
      const key = `${row.split(',')[1]}|${y}`;
      perLineY.set(key, (perLineY.get(key) ?? new Set()).add(x!));
    }
    for (const xs of perLineY.values()) expect(xs.size).toBe(1);
  });
});
