import { describe, expect, it } from 'vitest';
import { taskResultNoun, taskResultPath } from './index.js';

describe('where a finished task leads', () => {
  it('leads a caption task to its captions and the others to their moments', () => {
    expect(taskResultPath({ id: 't1', kind: 'caption' })).toBe('/video/t1/captions');
    expect(taskResultPath({ id: 't2', kind: 'viral' })).toBe('/video/t2/moments');
    expect(taskResultPath({ id: 't3', kind: 'search' })).toBe('/video/t3/moments');
    expect(taskResultNoun('caption')).toBe('captions');
    expect(taskResultNoun('search')).toBe('moments');
  });
});
