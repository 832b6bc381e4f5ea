import type { Transcript, TranscriptWord } from '../types';
import { ORDINARY_OPENERS, ORDINARY_TALK } from './corpus';

/** A passage to plant at a fraction (0..1) of the transcript's length. */
export interface Plant {
  id: string;
  sentences: string[];
  at: number;
  /** Speaking rate in words per second; ordinary talk varies around 2.6. */
  wordsPerSecond?: number;
}

export interface SyntheticTranscript {
  transcript: Transcript;
  /** Ground truth: every sentence with its time span. */
  sentences: { startMs: number; endMs: number; text: string }[];
  planted: Map<string, { startMs: number; endMs: number }>;
}

/** Deterministic PRNG (mulberry32) so each test run builds the same transcript. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Builds a realistic long transcript: ordinary sentences on everyday topics (a few sentences per topic
 * in a row, like real talk), words timed from a speaking rate with pauses between sentences and longer
 * ones between paragraphs, speech-engine segments that ignore sentence boundaries, and the planted
 * passages at their positions.
 */
export function buildSyntheticTranscript(options: {
  minutes: number;
  seed: number;
  plants?: Plant[];
}): SyntheticTranscript {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const topics = Object.keys(ORDINARY_TALK);
  const unused = new Map(topics.map((topic) => [topic, [...(ORDINARY_TALK[topic] ?? [])]]));
  const targetMs = options.minutes * 60_000;
  const plants = [...(options.plants ?? [])].sort((a, b) => a.at - b.at);

  const words: TranscriptWord[] = [];
  const sentences: SyntheticTranscript['sentences'] = [];
  const planted = new Map<string, { startMs: number; endMs: number }>();
  let clock = 800;

  const speak = (text: string, wordsPerSecond: number) => {
    const tokens = text.split(/\s+/).filter(Boolean);
    const totalChars = tokens.reduce((sum, token) => sum + token.length + 2, 0);
    const sentenceMs = (tokens.length / wordsPerSecond) * 1000;
    const startMs = Math.round(clock);
    for (const token of tokens) {
      const slotMs = (sentenceMs * (token.length + 2)) / totalChars;
      const gapMs = 30 + random() * 60;
      const startWord = Math.round(clock);
      const endWord = Math.max(startWord + 60, Math.round(clock + slotMs - gapMs));
      words.push({
        text: token,
        startMs: startWord,
        endMs: endWord,
        confidence: Math.round((0.8 + random() * 0.19) * 100) / 100,
      });
      clock = Math.max(clock + slotMs, endWord + 20);
    }
    const endMs = words[words.length - 1]?.endMs ?? startMs;
    sentences.push({ startMs, endMs, text });
    clock += 300 + random() * 550;
    return { startMs, endMs };
  };

  let plantIndex = 0;
  while (clock < targetMs || plantIndex < plants.length) {
    const plant = plants[plantIndex];
    if (plant && clock >= plant.at * targetMs) {
      clock += 700 + random() * 600;
      const spans = plant.sentences.map((text) => speak(text, plant.wordsPerSecond ?? 2.7));
      planted.set(plant.id, {
        startMs: spans[0]?.startMs ?? 0,
        endMs: spans[spans.length - 1]?.endMs ?? 0,
      });
      clock += 700 + random() * 600;
      plantIndex++;
      continue;
    }
    if (clock >= targetMs) {
      clock = (plant?.at ?? 1) * targetMs;
      continue;
    }
    // A paragraph: 3 to 7 sentences on one topic, then a longer pause.
    const topic = pick(topics);
    const sentencesInParagraph = 3 + Math.floor(random() * 5);
    for (let k = 0; k < sentencesInParagraph; k++) {
      let pool = unused.get(topic) ?? [];
      if (pool.length === 0) unused.set(topic, (pool = [...(ORDINARY_TALK[topic] ?? [])]));
      const sentence = pool.splice(Math.floor(random() * pool.length), 1)[0] ?? '';
      const opener = pick(ORDINARY_OPENERS);
      const keepCapital = /^I\b/.test(sentence);
      const text =
        opener && !keepCapital
          ? `${opener}${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`
          : opener + sentence;
      speak(text, 2.3 + random() * 0.7);
      const nextPlant = plants[plantIndex];
      if (nextPlant && clock >= nextPlant.at * targetMs) break;
    }
    clock += 600 + random() * 900;
  }

  // Speech-engine segments of 8..24 words that often end mid-sentence, as real engines do.
  const segments: Transcript['segments'] = [];
  for (let i = 0; i < words.length;) {
    const size = 8 + Math.floor(random() * 17);
    const chunk = words.slice(i, i + size);
    i += size;
    segments.push({
      startMs: chunk[0]?.startMs ?? 0,
      endMs: chunk[chunk.length - 1]?.endMs ?? 0,
      text: chunk.map((word) => word.text).join(' '),
      words: chunk,
    });
  }
  const durationMs = Math.round(clock + 1000);
  return { transcript: { language: 'en', durationMs, segments }, sentences, planted };
}
