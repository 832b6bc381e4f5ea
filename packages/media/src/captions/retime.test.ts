import { describe, expect, it } from 'vitest';
import { retimeWords } from './retime';
import type { CaptionWord } from './words';

const spoken: CaptionWord[] = [
  { text: 'We', startMs: 0, endMs: 200 },
  { text: 'sold', startMs: 250, endMs: 600 },
  { text: 'fifty', startMs: 650, endMs: 1000 },
  { text: 'units', startMs: 1050, endMs: 1500 },
  { text: 'today.', startMs: 2000, endMs: 2400 },
];

describe('retimeWords', () => {
  it('keeps every timing when the text is unchanged', () => {
    expect(retimeWords(spoken, 'We sold fifty units today.')).toEqual(spoken);
  });

  it('keeps timings of words whose case or punctuation changed, with the new spelling', () => {
    const result = retimeWords(spoken, 'we sold fifty units, today!');
    expect(result.map((word) => word.text)).toEqual(['we', 'sold', 'fifty', 'units,', 'today!']);
    expect(result.map((word) => [word.startMs, word.endMs])).toEqual(
      spoken.map((word) => [word.startMs, word.endMs]),
    );
  });

  it('spreads a replaced word over the new words in proportion to their length; numbers and symbols are words', () => {
    const result = retimeWords(spoken, 'We sold 50 % units today.');
    expect(result.map((word) => word.text)).toEqual(['We', 'sold', '50', '%', 'units', 'today.']);
    const [, sold, fifty, percent, units] = result;
    expect(sold).toEqual(spoken[1]);
    expect(units).toEqual(spoken[3]);
    // "fifty" took 650–1000 ms; "50" (2 characters) gets two thirds of it, "%" one third.
    expect(fifty).toEqual({ text: '50', startMs: 650, endMs: 883 });
    expect(percent).toEqual({ text: '%', startMs: 883, endMs: 1000 });
  });

  it('gives inserted words the pause they were said in when there is one', () => {
    const result = retimeWords(spoken, 'We sold fifty units, er, today.');
    const inserted = result.find((word) => word.text === 'er,');
    expect(inserted).toEqual({ text: 'er,', startMs: 1500, endMs: 2000 });
    expect(result.at(-1)).toEqual(spoken[4]);
  });

  it('shares the previous word time when an insertion has no pause to use', () => {
    const result = retimeWords(spoken, 'We really sold fifty units today.');
    const [we, really, sold] = result;
    // "We" (0–200) and the 50 ms gap before "sold" are shared by "We" + "really" (2 : 6).
    expect(we).toEqual({ text: 'We', startMs: 0, endMs: 63 });
    expect(really).toEqual({ text: 'really', startMs: 63, endMs: 250 });
    expect(sold).toEqual(spoken[1]);
  });

  it('drops deleted words and leaves the others untouched', () => {
    const result = retimeWords(spoken, 'We sold units today.');
    expect(result).toEqual([spoken[0], spoken[1], spoken[3], spoken[4]]);
  });

  it('re-times a span replaced by several words across the whole span', () => {
    const result = retimeWords(spoken, 'We shipped many boxes today.');
    expect(result[0]).toEqual(spoken[0]);
    expect(result.at(-1)).toEqual(spoken[4]);
    const middle = result.slice(1, -1);
    expect(middle.map((word) => word.text)).toEqual(['shipped', 'many', 'boxes']);
    expect(middle[0]!.startMs).toBe(250);
    expect(middle.at(-1)!.endMs).toBe(1500);
    for (let index = 1; index < middle.length; index++) {
      expect(middle[index]!.startMs).toBe(middle[index - 1]!.endMs);
    }
  });

  it('works on Chinese, where the edited text has no spaces', () => {
    const chinese: CaptionWord[] = [
      { text: '我们', startMs: 0, endMs: 300 },
      { text: '今天', startMs: 300, endMs: 600 },
      { text: '很', startMs: 600, endMs: 800 },
      { text: '高兴', startMs: 800, endMs: 1200 },
    ];
    const result = retimeWords(chinese, '我们明天很高兴', 'zh');
    expect(result.map((word) => word.text)).toEqual(['我们', '明天', '很', '高兴']);
    expect(result[1]).toEqual({ text: '明天', startMs: 300, endMs: 600 });
    expect(result[3]).toEqual(chinese[3]);
  });
});
