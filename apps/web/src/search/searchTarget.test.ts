import { describe, expect, it } from 'vitest';
import { searchTarget } from './searchTarget';

describe('search query words', () => {
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
