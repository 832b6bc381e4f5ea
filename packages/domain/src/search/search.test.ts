import { describe, expect, it } from 'vitest';
import { queryWords } from './index';

describe('query words', () => {
  it('keeps each searched word once, lowercased, in any script', () => {
    expect(queryWords('Climate  CHANGE climate')).toEqual(['climate', 'change']);
    expect(queryWords('气候 变化')).toEqual(['气候', '变化']);
  });

  it('drops excluded words, the or operator, quotes and single letters', () => {
    expect(queryWords('"melting glaciers" -ski OR alps a')).toEqual([
      'melting',
      'glaciers',
      'alps',
    ]);
    expect(queryWords('%_%')).toEqual([]);
  });
});
