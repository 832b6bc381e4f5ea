import { describe, expect, it } from 'vitest';
import { withBrandCards } from './cards';

const ASS = [
  '[Script Info]',
  '[V4+ Styles]',
  'Style: Main,Noto Sans,60,&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,3,0,2,40,40,200,1',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:00.50,0:00:01.00,Main,,0,0,0,,hello',
  '',
].join('\n');

describe('withBrandCards', () => {
  it('adds an intro at the start and an outro at the end, in the captions font', () => {
    const ass = withBrandCards(ASS, {
      introText: 'Made by {us}',
      outroText: 'Follow for more',
      durationMs: 8000,
      width: 1080,
      height: 1920,
    });
    expect(ass).toMatch(/^Style: BrandCard,Noto Sans,/m);
    const cards = ass.split('\n').filter((line) => line.includes(',BrandCard,'));
    expect(cards).toHaveLength(4);
    expect(cards[1]).toContain('0:00:00.00,0:00:01.50');
    expect(cards[1]).toContain('Made by (us)');
    expect(cards[3]).toContain('0:00:06.50,0:00:08.00');
    expect(cards[3]).toContain('Follow for more');
    expect(ass).toContain('Dialogue: 0,0:00:00.50,0:00:01.00,Main,,0,0,0,,hello');
  });

  it('leaves a document without cards as it is, and never overlaps the two on a short clip', () => {
    expect(
      withBrandCards(ASS, {
        introText: null,
        outroText: null,
        durationMs: 5000,
        width: 720,
        height: 1280,
      }),
    ).toBe(ASS);
    const short = withBrandCards(ASS, {
      introText: 'Hi',
      outroText: 'Bye',
      durationMs: 2000,
      width: 720,
      height: 1280,
    });
    const outro = short.split('\n').filter((line) => line.includes('Bye'));
    expect(outro[0]).toContain('0:00:01.50,0:00:02.00');
  });
});
