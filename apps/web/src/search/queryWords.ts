/** Word-ish runs of letters and digits in any script. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a search to highlight in snippets, read the way the server reads the query:
 * `-word` excludes, `or` is an operator, single letters would light up everything.
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

/** What the search box should do with its text: search keywords, or open a video link. */
export function searchTarget(text: string): string | null {
  const value = text.trim();
  if (!value) return null;
  if (/^https?:\/\/\S+$/i.test(value))
    return `/search/result/video/result?url=${encodeURIComponent(value)}`;
  return `/search/result?query=${encodeURIComponent(value)}`;
}
