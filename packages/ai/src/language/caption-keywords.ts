/**
 * The words captions emphasise: numbers, names and the words of the passage's keyphrases, found
 * by the same tagger and keyphrase ranking that write hashtags and chapter titles.
 */
import { tagWords } from './english';
import { lexicalKeyphrases } from './keyphrases';

/**
 * Key words of an English passage (as written, punctuation stripped), or undefined for another
 * language: the caption builder then falls back to numbers and long words.
 */
export function captionKeywords(text: string, language: string): string[] | undefined {
  if (!/^en\b/i.test(language)) return undefined;
  const keys = new Set<string>();
  const bare = (word: string) => word.replace(/^[\p{P}]+|[\p{P}]+$/gu, '');
  for (const word of tagWords(text)) {
    const written = bare(word.text);
    if (!written) continue;
    // "I" is tagged a name by the light model now and then.
    if (word.pos === 'NUM' || /\p{N}/u.test(written)) keys.add(written);
    else if (word.pos === 'PROPN' && written.length > 1) keys.add(written);
  }
  for (const phrase of lexicalKeyphrases([text], { limit: 6, maxWords: 3 })) {
    phrase.text.split(/\s+/).forEach((word, index) => {
      const tag = phrase.tags[index];
      if (tag === 'NOUN' || tag === 'PROPN' || tag === 'NUM') keys.add(bare(word));
    });
  }
  return [...keys].filter(Boolean);
}
