/** Word-ish runs of letters and digits in any script. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a search query, read the same way by the server (what a hit must contain, which
 * snippet to pick) and the web (what to highlight): websearch syntax is dropped (`-word` excludes,
 * `or` is an operator), single letters are too weak to match on alone, each word once, lowercased.
 */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const term of query.split(/\s+/)) {
    if (!term || term.startsWith('-') || term.toLowerCase() === 'or') continue;
    for (const [word] of term.toLowerCase().matchAll(WORD)) {
      if (word.length >= 2 && !words.includes(word)) words.push(word);
    }
  }
  return words;
}
