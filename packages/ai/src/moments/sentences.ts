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

/** Words of the transcript in time order; segments that carry no words get evenly spread ones. */
export function transcriptWords(transcript: Transcript): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  for (const segment of transcript.segments) {
    if (segment.words.length > 0) {
      for (const word of segment.words) if (word.text.trim()) words.push(word);
      continue;
    }
    const texts = segment.text.split(/\s+/).filter(Boolean);
    const totalChars = texts.reduce((sum, text) => sum + text.length + 1, 0);
    let cursor = segment.startMs;
    for (const text of texts) {
      const length = Math.round(
        ((segment.endMs - segment.startMs) * (text.length + 1)) / totalChars,
      );
      words.push({ text, startMs: cursor, endMs: cursor + Math.max(1, length - 1), confidence: 0 });
      cursor += length;
    }
  }
  return words.sort((a, b) => a.startMs - b.startMs);
}

/** Sentences from word punctuation and pauses. */
export function splitSentences(transcript: Transcript): Sentence[] {
  const words = transcriptWords(transcript);
  const sentences: Sentence[] = [];
  let current: TranscriptWord[] = [];
  const close = (terminal: boolean) => {
    const first = current[0];
    const last = current[current.length - 1];
    if (!first || !last) return;
    sentences.push({
      index: sentences.length,
      startMs: first.startMs,
      endMs: last.endMs,
      text: current.map((word) => word.text.trim()).join(' '),
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
    if (TERMINAL_PUNCTUATION.test(text) && !ABBREVIATION.test(text)) close(true);
    else if (!next) close(false);
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
