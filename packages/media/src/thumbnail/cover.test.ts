import { describe, expect, it } from 'vitest';
import { coverLines } from './cover.js';

describe('cover title lines', () => {
  it('breaks a hook title into short lines at spaces, at most four, the rest cut', () => {
    expect(coverLines('Why most startups fail in their first year')).toEqual([
      'Why most startups',
      'fail in their',
      'first year',
    ]);
    expect(coverLines('  Short  ')).toEqual(['Short']);
    const long = coverLines(
      'one two three four five six seven eight nine ten eleven twelve thirteen',
    );
    expect(long).toHaveLength(4);
    expect(long[3]!.endsWith('…')).toBe(true);
  });
});
