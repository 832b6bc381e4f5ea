import type { Transcript, TranscriptWord } from './types';

/** A sentence of the transcript: whole words only, so a span of sentences never cuts a word or a sentence. */
export interface Sentence {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
  words: TranscriptWord[];
  /** True when the sentence ends with terminal punctuation (a complete thought), not only a pause. */
  terminal: boolean;
}

const TERMINAL_PUNCTUATION = /[.!?…。！？]["'”’)\]]*$/u;
/** Abbreviations whose period ends no sentence ("Mount St. Helens", "Mr. Dashwood"). */
const ABBREVIATION = /^(?:mr|mrs|ms|dr|st|mt|prof|sr|jr|vs|e\.g|i\.e|approx|dept)\.$/i;
/** A pause this long ends a sentence even without punctuation (speech engines without punctuation). */
const LONG_PAUSE_MS = 1500;
/** Past this length an unpunctuated run is split at a shorter pause, so candidates stay clip-sized. */
const LONG_SENTENCE_MS = 20_000;
const SHORT_PAUSE_MS = 400;

/** The words in time order, and which of them close a segment of the speech engine. */
function wordsAndSegmentEnds(transcript: Transcript): {
  words: TranscriptWord[];
  segmentEnds: Set<TranscriptWord>;
} {
  const words: TranscriptWord[] = [];
  const segmentEnds = new Set<TranscriptWord>();
  for (const segment of transcript.segments) {
    const before = words.length;
    if (segment.words.length > 0) {
      for (const word of segment.words) if (word.text.trim()) words.push(word);
    } else {
      const texts = segment.text.split(/\s+/).filter(Boolean);
      const totalChars = texts.reduce((sum, text) => sum + text.length + 1, 0);
      let cursor = segment.startMs;
      for (const text of texts) {
        const length = Math.round(
          ((segment.endMs - segment.startMs) * (text.length + 1)) / totalChars,
        );
        words.push({
          text,
          startMs: cursor,
          endMs: cursor + Math.max(1, length - 1),
          confidence: 0,
        });
        cursor += length;
      }
    }
    if (words.length > before) segmentEnds.add(words[words.length - 1]!);
  }
  return { words: words.sort((a, b) => a.startMs - b.startMs), segmentEnds };
}

const endsSentence = (text: string) => TERMINAL_PUNCTUATION.test(text) && !ABBREVIATION.test(text);

/**
 * Whisper sometimes writes a whole talk without sentence punctuation, yet still one segment per
 * sentence, each opening with a capital ("…it's in the subject line" / "Start with…"). Below this
 * many sentence-ending words per segment, the segments are taken as the sentences.
 */
const UNPUNCTUATED_ENDS_PER_SEGMENT = 0.3;

/**
 * Whether the speech engine's segment ending at `word` ends a sentence of an unpunctuated
 * transcript: not on a comma, and the next segment opens like a sentence (a capital, other than
 * "I", or a script without capitals).
 */
function segmentEndsSentence(word: TranscriptWord, next: TranscriptWord): boolean {
  if (/[,;:\-–—]$/u.test(word.text.trim())) return false;
  const opening = next.text.trim().replace(/^["'“‘([¿¡]+/u, '');
  if (/^I(?:$|['’])/u.test(opening)) return false;
  return /^\p{Lu}/u.test(opening) || !/^[\p{Ll}\p{N}]/u.test(opening);
}

/** Sentences from word punctuation and pauses. */
export function splitSentences(transcript: Transcript): Sentence[] {
  const { words, segmentEnds } = wordsAndSegmentEnds(transcript);
  const punctuatedEnds = words.filter((word) => endsSentence(word.text.trim())).length;
  const unpunctuated =
    segmentEnds.size >= 3 && punctuatedEnds < UNPUNCTUATED_ENDS_PER_SEGMENT * segmentEnds.size;
  const sentences: Sentence[] = [];
  let current: TranscriptWord[] = [];
  const close = (terminal: boolean, addPeriod = false) => {
    const first = current[0];
    const last = current[current.length - 1];
    if (!first || !last) return;
    const text = current.map((word) => word.text.trim()).join(' ');
    sentences.push({
      index: sentences.length,
      startMs: first.startMs,
      endMs: last.endMs,
      // Read as prose (overview, key points), an inferred sentence end gets its full stop.
      text: addPeriod ? `${text}.` : text,
      words: current,
      terminal,
    });
    current = [];
  };
  words.forEach((word, i) => {
    current.push(word);
    const next = words[i + 1];
    const gap = next ? next.startMs - word.endMs : Infinity;
    const firstStart = current[0]?.startMs ?? word.startMs;
    const text = word.text.trim();
    // An inferred end gets a full stop only in a script that writes one after a word.
    const fullStop = /[\p{Lu}\p{Ll}\p{N}]$/u.test(text);
    if (endsSentence(text)) close(true);
    else if (!next) close(unpunctuated, unpunctuated && fullStop);
    else if (unpunctuated && segmentEnds.has(word) && segmentEndsSentence(word, next))
      close(true, fullStop);
    else if (gap >= LONG_PAUSE_MS) close(false);
    else if (word.endMs - firstStart >= LONG_SENTENCE_MS && gap >= SHORT_PAUSE_MS) close(false);
  });
  return sentences;
}

/** Index of the sentence a time falls in, or the nearest one after (or before, at the end). */
export function sentenceAt(
  sentences: readonly Sentence[],
  timeMs: number,
  prefer: 'start' | 'end',
): number {
  let best = -1;
  for (const sentence of sentences) {
    if (timeMs >= sentence.startMs && timeMs <= sentence.endMs) return sentence.index;
    if (prefer === 'start' && sentence.startMs >= timeMs) return sentence.index;
    if (prefer === 'end' && sentence.endMs <= timeMs) best = sentence.index;
  }
  if (best >= 0) return best;
  return prefer === 'start' ? sentences.length - 1 : 0;
}
