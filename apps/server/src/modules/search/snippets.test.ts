import { contentTerms } from '@moments/ai/search';
import { describe, expect, it } from 'vitest';
import { bestSnippet, clipSnippet, queryWords } from './snippets.js';

describe('search snippets', () => {
  it('reads the query words as full-text search does, minus operators', () => {
    expect(queryWords('"Melting glaciers" -ski OR alps a')).toEqual([
      'melting',
      'glaciers',
      'alps',
    ]);
    expect(queryWords('%_%')).toEqual([]);
    expect(queryWords('气候变化')).toEqual(['气候变化']);
  });

  it('picks the sentence with the most query words and where it is heard', () => {
    const words = (text: string, startMs: number) =>
      text.split(' ').map((word, i) => ({ text: word, startMs: startMs + i * 500 }));
    const snippet = bestSnippet(
      [
        { text: 'The glaciers are old.', startMs: 0, words: words('The glaciers are old.', 0) },
        {
          text: 'We walked all day. Melting glaciers feed the river now.',
          startMs: 10_000,
          words: words('We walked all day. Melting glaciers feed the river now.', 10_000),
        },
      ],
      contentTerms('melting glaciers'),
    );
    expect(snippet).toEqual({
      text: 'Melting glaciers feed the river now.',
      startMs: 12_000,
      matched: true,
    });
    expect(bestSnippet([{ text: 'Nothing here. At all.', startMs: 5 }], ['glacier'])).toEqual({
      text: 'Nothing here.',
      startMs: 5,
      matched: false,
    });
  });

  it('never picks a sentence for the function words it shares with the query', () => {
    // "How is the weather in the mountains": only "weather" and "mountains" say what is asked.
    const snippet = bestSnippet(
      [
        { text: 'It is what it is, and that is how it is.', startMs: 0 },
        { text: 'Mountain weather turns within minutes.', startMs: 4_000 },
      ],
      contentTerms('How is the weather in the mountains'),
    );
    expect(snippet).toMatchObject({
      text: 'Mountain weather turns within minutes.',
      matched: true,
    });
    expect(
      bestSnippet(
        [{ text: 'It is what it is.', startMs: 0 }],
        contentTerms('How is the weather in the mountains'),
      ).matched,
    ).toBe(false);
  });

  it('cuts a long sentence to 200 characters around the first match', () => {
    const long = `${'word '.repeat(80)}the glacier melts ${'again '.repeat(40)}`.trim();
    const snippet = clipSnippet(long, ['glacier']);
    expect(snippet.length).toBeLessThanOrEqual(200);
    expect(snippet).toContain('the glacier melts');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });
});
