// The tagger-based rules behind hashtags, chapter titles and advice, on sentences written
// for this test (none from the bench talks or the judge's lists).
import { describe, expect, it } from 'vitest';
import { endsOnFunctionWord, grammarCues, hashtagOf, keyphrases, nounPhrases } from './index';

describe('nounPhrases', () => {
  it('finds the topics of a sentence, without articles, bare numbers or empty nouns', () => {
    const phrases = (text: string) => nounPhrases(text).map((phrase) => phrase.text);
    expect(phrases('Choosing a first camera is harder than it looks.')).toEqual(['first camera']);
    expect(phrases('He was not an ill-disposed young man.')).toEqual(['ill-disposed young man']);
    expect(phrases('We sold 40 of them in one thing or another.')).toEqual([]);
    expect(nounPhrases('The price of fresh bread rose.', { withOf: true })[0]?.text).toBe(
      'price of fresh bread',
    );
  });

  it('never takes a full stop after a short word for an abbreviation', () => {
    // The tokenizer reads "in." as inches and "no." as number, nouns that would end a topic.
    const phrases = (text: string) => nounPhrases(text).map((phrase) => phrase.text);
    expect(phrases('Nobody on the crew had any formal training in.')).toEqual([
      'crew',
      'formal training',
    ]);
    expect(phrases('The harbour master simply said no.')).toEqual(['harbour master']);
    expect(endsOnFunctionWord('Formal training in.')).toBe(true);
    expect(phrases('We packed tents, stoves, ropes etc. for the trip.')).toContain('trip');
  });

  it('never takes "I\'m" for a name', () => {
    // The tokenizer keeps "I'm" whole and tags it a proper noun: a chapter was titled "I'm".
    const phrases = (text: string) => nounPhrases(text).map((phrase) => phrase.text);
    expect(phrases("And then I said, I'm the new junior.")).toEqual(['new junior']);
    expect(phrases('Sorry, I’m soaked through.')).toEqual([]);
  });
});

describe('endsOnFunctionWord', () => {
  it('tells a title cut on "and", "of" or "the" from one ending on its topic', () => {
    expect(endsOnFunctionWord('Keeping a boat afloat and')).toBe(true);
    expect(endsOnFunctionWord('The cost of')).toBe(true);
    expect(endsOnFunctionWord('Flight, airport and the')).toBe(true);
    expect(endsOnFunctionWord('Battery life in the cold')).toBe(false);
    expect(endsOnFunctionWord('Choosing a first camera')).toBe(false);
  });
});

describe('grammarCues', () => {
  it('hears advice and strong claims in wording no phrase list holds', () => {
    expect(grammarCues('Keep the receipts in one envelope until April.').imperative).toBe(true);
    expect(grammarCues('So just water the roots, not the leaves.').imperative).toBe(true);
    expect(grammarCues('Let us begin with the history.').imperative).toBe(false);
    expect(grammarCues('Do you ever wonder why?').imperative).toBe(false);
    // A command after an opening phrase or clause, even one that ends by quoting a question.
    expect(grammarCues('In every interview, keep your answers under two minutes.').imperative).toBe(
      true,
    );
    expect(grammarCues('Before you sign, just ask: is the deposit refundable?').imperative).toBe(
      true,
    );
    expect(grammarCues('After the storm, we rebuilt the shed.').imperative).toBe(false);
    expect(grammarCues('When I started, nobody trained me.').imperative).toBe(false);
    expect(grammarCues('When the light goes off, stay seated.').imperative).toBe(true);
    expect(grammarCues('You know, people stay longer.').imperative).toBe(false);
    expect(grammarCues('Tenants should photograph the meter on day one.').obligation).toBe(true);
    const claim = grammarCues('The cheapest upgrade any kitchen can get is a sharper knife.');
    expect(claim.superlative).toBe(true);
    expect(grammarCues('The smartest decision we made was to rent first.').takeawayClaim).toBe(
      true,
    );
    expect(grammarCues('I walked to the station and caught the train.')).toEqual({
      imperative: false,
      obligation: false,
      superlative: false,
      takeawayClaim: false,
    });
  });
});

describe('keyphrases and hashtags', () => {
  it('ranks the phrases a passage keeps returning to, each unlike the last, as tags', async () => {
    const passage = [
      'Our rescue greyhound was terrified of the stairs for the first month.',
      'We carried the greyhound up every night, all thirty kilos of her.',
      'A trainer suggested treats on each step, one stair at a time.',
      'Now she races up the stairs before we have taken our coats off.',
    ];
    const elsewhere = ['We moved house in the spring.', 'The garden needed a new fence.'];
    const phrases = await keyphrases(passage, { embedder: null, elsewhere, limit: 3 });
    expect(phrases.map((phrase) => phrase.head)).toContain('greyhound');
    expect(phrases.map((phrase) => phrase.head)).toContain('stair');
    // No two tags repeat a word.
    const words = phrases.flatMap((phrase) => phrase.stems);
    expect(new Set(words).size).toBe(words.length);
    expect(hashtagOf('rescue greyhound')).toBe('#RescueGreyhound');
    expect(hashtagOf('ill-disposed young man')).toBe('#IllDisposedYoungMan');
    expect(hashtagOf('40')).toBeUndefined();
  });

  it('puts a phrase holding a word the engine was unsure of last', async () => {
    const phrases = await keyphrases(
      ['The harbour ferry leaves from the stone pier every hour.', 'The ferry is always late.'],
      { embedder: null, lowConfidence: new Set(['ferry']), limit: 3 },
    );
    expect(phrases[0]!.text).not.toMatch(/ferry/);
  });
});
