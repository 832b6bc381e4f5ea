// Titles from the clip's own strongest sentence, cut where a reader would cut them, and
// never starting on a word the speech engine was unsure of when a clean sentence exists.
import { describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE } from '../language/index';
import { findViralMoments } from './find';
import { transcriptFromParagraphs } from './testing/held-out';
import { cutTitle, wholeTitle } from './titles';

describe('cutTitle', () => {
  it('keeps a short title whole and cuts a long one after a whole clause, with no ellipsis', () => {
    expect(cutTitle('Ferries leave the harbour every hour')).toBe(
      'Ferries leave the harbour every hour',
    );
    const clause = cutTitle(
      'We rebuilt the whole engine in a weekend, and it still runs on the original spark plugs',
    );
    expect(clause).toBe('We rebuilt the whole engine in a weekend');
    const words = cutTitle(
      'The tenants who photograph every meter on their first day get their deposits back more often than those',
    );
    expect(words.length).toBeLessThanOrEqual(60);
    expect(words).not.toMatch(/…/);
    expect(words).not.toMatch(/\b(the|a|of|and|than|who|their|on)$/i);
  });

  it('takes the main clause after an opening one, never the opening clause alone', () => {
    expect(
      cutTitle('If you only remember one thing from this whole evening, write every expense down'),
    ).toBe('Write every expense down');
  });

  it('never cuts away the turn or the negation of what is said', () => {
    // Cut before its "but not", the clause would claim what the speaker takes back.
    expect(
      wholeTitle(
        'The loan looked like the cheapest way to get started, but not once we read the terms',
      ),
    ).toBeUndefined();
    expect(
      wholeTitle('You do not need more money to start saving each month, you need a habit'),
    ).toBe('You do not need more money to start saving each month');
  });
});

describe('titles on a transcript with misheard words', () => {
  const talk = [
    'Welcome in, everyone, grab a chair.',
    '>> The first winter we kept bees, we lost three of our four hives to damp, not cold. A hive that stays dry can survive twenty degrees below zero. So tilt the roof of every hive forward a little, and the rain runs off.',
    'The honey that year was dark and tasted of heather.',
    'Thanks for coming along today.',
  ];

  it('titles each clip from one of its own sentences, starting on a word the engine was sure of', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const words = transcript.segments.flatMap((segment) => segment.words);
    const clipOf = async () =>
      (await findViralMoments(transcript, { minMs: 5_000, embedder: null })).moments.find(
        (moment) => moment.text.includes('tilt the roof'),
      )!;
    // Sure of every word, the clip is titled from its opening story sentence.
    expect((await clipOf()).title).toMatch(/^The first winter/);
    // Unsure of that sentence's first word ("The" might have been "A"), it takes a clean one.
    words.find((word) => word.text === 'The')!.confidence = LOW_CONFIDENCE / 2;
    const clip = await clipOf();
    expect(clip.title.length).toBeLessThanOrEqual(60);
    expect(clip.title).not.toMatch(/^The first winter/);
    const opening = clip.title.replace(/…$/, '').toLowerCase();
    expect(clip.text.toLowerCase()).toContain(opening);
  });

  it('never shows a content word the engine was unsure of when another sentence titles the clip cleanly', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const words = transcript.segments.flatMap((segment) => segment.words);
    // "bees" inside the opening sentence might have been "peas": the title comes from elsewhere.
    words.find((word) => word.text.startsWith('bees'))!.confidence = LOW_CONFIDENCE / 2;
    const clip = (
      await findViralMoments(transcript, { minMs: 5_000, embedder: null })
    ).moments.find((moment) => moment.text.includes('tilt the roof'))!;
    expect(clip.title).not.toMatch(/bees/i);
    expect(clip.text.toLowerCase()).toContain(clip.title.replace(/…$/, '').toLowerCase());
  });
});
