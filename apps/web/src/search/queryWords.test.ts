import { describe, expect, it } from 'vitest';
import { queryWords, searchTarget } from './queryWords';

describe('search query words', () => {
  it('keeps the words a snippet should highlight', () => {
    expect(queryWords('Climate  CHANGE climate')).toEqual(['climate', 'change']);
    expect(queryWords('"melting glaciers" -ski or alps a')).toEqual([
      'melting',
      'glaciers',
      'alps',
    ]);
    expect(queryWords('气候 变化')).toEqual(['气候', '变化']);
    expect(queryWords('%_%')).toEqual([]);
  });

  it('sends keywords to the results page and links to the video page', () => {
    expect(searchTarget('  rock & roll ')).toBe('/search/result?query=rock%20%26%20roll');
    expect(searchTarget('https://example.com/a b')).toBe(
      '/search/result?query=https%3A%2F%2Fexample.com%2Fa%20b',
    );
    expect(searchTarget('https://example.com/v.mp4')).toBe(
      '/search/result/video/result?url=https%3A%2F%2Fexample.com%2Fv.mp4',
    );
    expect(searchTarget('   ')).toBeNull();
  });
});
