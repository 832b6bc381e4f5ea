import { describe, expect, it } from 'vitest';
import { sentenceCues } from './clip-judge';

describe('sentenceCues: housekeeping', () => {
  it('knows a sponsor read that never says "sponsor", and not the same words in ordinary talk', () => {
    // A podcast's mid-roll, as the bench's dev talk had it: no clip should open on it.
    expect(
      sentenceCues('Quick word from the people keeping our lights on.').housekeeping,
    ).toBeGreaterThan(0);
    expect(
      sentenceCues('This hour is sponsored by a bike light company.').housekeeping,
    ).toBeGreaterThan(0);
    // "a word from" the talk's own subject is content.
    expect(sentenceCues('Algebra is a word from Arabic, al-jabr.').housekeeping).toBe(0);
    expect(sentenceCues('The claim is supported by ten years of data.').housekeeping).toBe(0);
  });
});
