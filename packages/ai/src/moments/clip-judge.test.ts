import { describe, expect, it } from 'vitest';
import { sentenceCues } from './clip-judge';

/** Each line of `said` reads as housekeeping; each line of `content` does not. */
function expectHousekeeping(said: readonly string[], content: readonly string[]): void {
  for (const line of said) expect(sentenceCues(line).housekeeping, line).toBeGreaterThan(0);
  for (const line of content) expect(sentenceCues(line).housekeeping, line).toBe(0);
}

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

describe('sentenceCues: what a speaker says to the listeners', () => {
  it('knows offers, requests and goodbyes, and not their words in the talk itself', () => {
    expectHousekeeping(
      [
        'Type the word garden at checkout for ten percent off.',
        'If you liked this video, tell a friend.',
        'Send us your questions and we will read some out next time.',
        'Let me know in the comments how yours turned out.',
        'That is a good place to stop for today.',
        'Thanks so much for joining me, and happy knitting.',
        'Okay, quick note: the slides will be online tonight.',
      ],
      [
        'She was happy knowing the bridge would hold.',
        'One quick thing you can do is open the window.',
        'His slides were the clearest part of the lecture.',
        'The first order of business was the roof.',
      ],
    );
  });
});

describe('sentenceCues: a lecture or show notice', () => {
  it('knows notices given before the talk starts, and not the same words in the talk', () => {
    expectHousekeeping(
      [
        'Before we start, the reading list for next week is on the course page.',
        'One thing before we begin: the fire exits are at the back.',
        'My office hours move to Thursday this week.',
      ],
      [
        'Check the tyres before you start the engine.',
        'We begin with the oldest bridge in the city.',
        'The hours before a storm are the calmest of the day.',
      ],
    );
  });
});
