import { describe, expect, it } from 'vitest';
import {
  PUBLISH_LIMITS,
  PUBLISH_PLATFORMS,
  fitText,
  normaliseHashtag,
  platformHashtags,
  publishKitTexts,
  publishTexts,
  textLength,
} from './index.js';

const longWords = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');

describe('publish kit texts', () => {
  it('cuts a long text at a word boundary with an ellipsis, inside the limit', () => {
    const fitted = fitText('The quick brown fox jumps over the lazy dog', 20);
    expect(textLength(fitted)).toBeLessThanOrEqual(20);
    expect(fitted).toBe('The quick brown fox…');
    expect(fitText('  short   text ', 20)).toBe('short text');
    // Emoji count as one character each, as the platforms count them.
    expect(textLength(fitText('🎉'.repeat(30), 10))).toBe(10);
  });

  it('writes hashtags the platforms accept: CamelCase phrases, no punctuation, no repeats', () => {
    expect(normaliseHashtag('#machine learning')).toBe('MachineLearning');
    expect(normaliseHashtag('ai-tools!')).toBe('AiTools');
    expect(normaliseHashtag('###')).toBeNull();
    expect(normaliseHashtag('2024')).toBeNull();
    expect(platformHashtags('tiktok', ['AI', 'ai', '#AI', 'startups'])).toEqual([
      '#AI',
      '#startups',
    ]);
  });

  it('keeps each platform to its hashtag count; YouTube files the clip under #Shorts', () => {
    const many = Array.from({ length: 40 }, (_, i) => `topic${i}`);
    for (const platform of PUBLISH_PLATFORMS) {
      const texts = publishTexts(platform, {
        title: 'A title',
        description: 'Text',
        hashtags: many,
      });
      expect(texts.hashtags.length).toBe(PUBLISH_LIMITS[platform].hashtagsMax);
    }
    const youtube = publishTexts('youtube_shorts', { title: 't', description: '', hashtags: [] });
    expect(youtube.hashtags).toEqual(['#Shorts']);
    expect(publishTexts('tiktok', { title: 't', description: '', hashtags: [] }).hashtags).toEqual(
      [],
    );
  });

  it('fits title and the whole caption to every platform even from very long moment texts', () => {
    const source = {
      title: longWords(60),
      description: longWords(2000),
      hashtags: Array.from({ length: 40 }, (_, i) => `a very long hashtag phrase number ${i}`),
    };
    for (const texts of publishKitTexts(source)) {
      const limits = PUBLISH_LIMITS[texts.platform];
      expect(textLength(texts.title)).toBeLessThanOrEqual(limits.titleMax);
      expect(textLength(texts.caption)).toBeLessThanOrEqual(limits.captionMax);
      expect(texts.caption).toContain(texts.hashtags[0]!);
      expect(texts.description.endsWith('…')).toBe(true);
    }
  });

  it('falls back on the transcript when the moment has no summary, and puts the chosen platform first', () => {
    const kit = publishKitTexts(
      { title: 'Why', description: ' ', hashtags: ['focus'], transcript: 'Here is the thing.' },
      'youtube_shorts',
    );
    expect(kit.map((texts) => texts.platform)).toEqual([
      'youtube_shorts',
      'tiktok',
      'instagram_reels',
    ]);
    expect(kit[0]!.description).toBe('Here is the thing.');
    expect(kit[1]!.caption).toBe('Why\n\nHere is the thing.\n\n#focus');
    expect(kit[0]!.caption).toBe('Here is the thing.\n\n#Shorts #focus');
  });
});
