/**
 * Word error rate for scoring transcripts against a reference text (as PeerTube scores its
 * transcription engines): (substitutions + deletions + insertions) / words in the reference.
 *
 * Both texts are normalised first, so formatting does not count as an error:
 * - Unicode NFKC, lower case;
 * - punctuation removed ("country." = "country", "don't" = "dont", "e-mail" = "e mail");
 * - symbols such as "$", "%", "€", "&", "@", "#" stay as words of their own (they carry meaning in
 *   captions);
 * - numbers are left as written: "20" and "twenty" differ and count as an error, because a
 *   caption showing the wrong form is a visible difference;
 * - scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese) count each
 *   character as a word, which makes the score a character error rate there.
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  return wordErrorDetails(reference, hypothesis).wordErrorRate;
}

export interface WordErrorDetails {
  wordErrorRate: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
}

export function wordErrorDetails(reference: string, hypothesis: string): WordErrorDetails {
  const ref = normalizeForWordErrorRate(reference);
  const hyp = normalizeForWordErrorRate(hypothesis);
  const { substitutions, deletions, insertions } = alignWords(ref, hyp);
  const errors = substitutions + deletions + insertions;
  // An empty reference has no rate; any inserted word then counts as 100% wrong.
  const rate = ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : errors / ref.length;
  return { wordErrorRate: rate, substitutions, deletions, insertions, referenceWords: ref.length };
}

const UNSPACED_SCRIPT_CHAR =
  /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Thai}|\p{Script=Lao}|\p{Script=Khmer}|\p{Script=Myanmar})/gu;

/** The word list that wordErrorRate compares, exported so tests and reports can show it. */
export function normalizeForWordErrorRate(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’ʼ]/g, '') // keep contractions whole: "don't" -> "dont"
    .replace(/[^\P{P}%‰&@#]+/gu, ' ') // punctuation, except the marks that read as words
    .replace(/([\p{S}%‰&@#])/gu, ' $1 ')
    .replace(UNSPACED_SCRIPT_CHAR, ' $1 ')
    .split(/\s+/u)
    .filter((word) => word.length > 0);
}

/** Levenshtein alignment over words, keeping the kind of each edit. */
function alignWords(
  ref: string[],
  hyp: string[],
): Omit<WordErrorDetails, 'wordErrorRate' | 'referenceWords'> {
  type Cell = { cost: number; substitutions: number; deletions: number; insertions: number };
  let previous: Cell[] = hyp.map((_, j) => ({
    cost: j + 1,
    substitutions: 0,
    deletions: 0,
    insertions: j + 1,
  }));
  previous.unshift({ cost: 0, substitutions: 0, deletions: 0, insertions: 0 });
  for (let i = 1; i <= ref.length; i++) {
    const current: Cell[] = [{ cost: i, substitutions: 0, deletions: i, insertions: 0 }];
    for (let j = 1; j <= hyp.length; j++) {
      const diagonal = previous[j - 1]!;
      const up = previous[j]!;
      const left = current[j - 1]!;
      const same = ref[i - 1] === hyp[j - 1];
      const substituteCost = diagonal.cost + (same ? 0 : 1);
      if (substituteCost <= up.cost + 1 && substituteCost <= left.cost + 1) {
        current.push({
          ...diagonal,
          cost: substituteCost,
          substitutions: diagonal.substitutions + (same ? 0 : 1),
        });
      } else if (up.cost <= left.cost) {
        current.push({ ...up, cost: up.cost + 1, deletions: up.deletions + 1 });
      } else {
        current.push({ ...left, cost: left.cost + 1, insertions: left.insertions + 1 });
      }
    }
    previous = current;
  }
  const { substitutions, deletions, insertions } = previous[hyp.length]!;
  return { substitutions, deletions, insertions };
}
