/**
 * Marked talks: spoken talks whose highlights, filler, main points, main takeaway, topic
 * shifts and questions with their answer spans were marked by hand, for the quality bench
 * (bench/quality.bench.ts). Two sets use this format: bench/dev (written by the developer, what the
 * rules may be tried on) and bench/frozen (written by someone kept away from the code; nothing is
 * tuned on it). The format is in bench/frozen/README.md.
 *
 * Each sentence is spoken separately, in its paragraph's voice and rate, with a short pause after
 * it and a longer one after its paragraph, so every sentence has an exact start and end; the real
 * speech engine transcribes the whole talk once and the result is kept, gzipped, in the set's
 * `transcripts/` (committed: every machine judges the same words, and a fresh clone need not spend
 * half an hour speaking and transcribing 40 talks; speech recognition has its own bench).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import {
  createSpeechEngine,
  withWrittenWords,
  type Transcript,
} from '../../packages/ai/src/asr/index';
import { speakWithPauses, type SpokenPart } from '../../packages/media/test/support/index';

export interface MarkedSentence {
  text: string;
  paragraph: number;
}

export interface MarkedParagraph {
  speaker: string;
  /** A passage a person would pick for a short clip. */
  highlight: boolean;
  /** Greetings, intros, sponsor reads, housekeeping, sign-offs: never in a top 3. */
  filler: boolean;
  /** A main point a summary must state. */
  main: boolean;
  /** The talk's one main takeaway (also main and highlight). */
  takeaway: boolean;
  /** A new topic starts with this paragraph. */
  shift: boolean;
  text: string;
  sentences: number[];
}

export interface MarkedQuestion {
  question: string;
  answer: string;
  /** The sentences that hold the answer (verbatim in one paragraph). */
  sentences: number[];
}

export interface MarkedTalk {
  set: string;
  name: string;
  title: string;
  style: string;
  /** Speaker tag to voice: `festival` or `espeak-ng:<voice>`. */
  voices: Record<string, string>;
  wordsPerMinute: number;
  paragraphs: MarkedParagraph[];
  sentences: MarkedSentence[];
  questions: MarkedQuestion[];
}

export interface Span {
  startMs: number;
  endMs: number;
}

/** A marked talk as spoken and transcribed, with the exact span of every sentence. */
export interface SpokenMarkedTalk extends MarkedTalk {
  transcript: Transcript;
  sentenceSpans: Span[];
  engine: string;
}

/** Sentence ends: terminal punctuation (and closing quotes) before the next sentence's capital. */
const SENTENCE_END = /(?<=[.!?]["')]*)\s+(?=["'(]*[\p{Lu}\d])/u;

/** The sentences of a paragraph, each with its character offset. */
function splitIntoSentences(paragraph: string): { text: string; at: number }[] {
  const sentences: { text: string; at: number }[] = [];
  let at = 0;
  for (const part of paragraph.split(SENTENCE_END)) {
    const offset = paragraph.indexOf(part, at);
    if (part.trim()) sentences.push({ text: part.trim(), at: offset });
    at = offset + part.length;
  }
  return sentences;
}

const MARKS = ['highlight', 'filler', 'main', 'takeaway', 'shift'] as const;

function parseParagraph(talk: MarkedTalk, line: string): void {
  const tags = /^\[([A-Z])\]((?:\[[a-z]+\])*) (.+)$/.exec(line);
  if (!tags) throw new Error(`${talk.name}: not a paragraph line: ${line.slice(0, 60)}`);
  const marks = new Set([...tags[2]!.matchAll(/\[([a-z]+)\]/g)].map((m) => m[1]!));
  for (const mark of marks)
    if (!(MARKS as readonly string[]).includes(mark))
      throw new Error(`${talk.name}: unknown mark [${mark}]`);
  const index = talk.paragraphs.length;
  const text = tags[3]!.trim();
  const paragraph: MarkedParagraph = {
    speaker: tags[1]!,
    highlight: marks.has('highlight'),
    filler: marks.has('filler'),
    main: marks.has('main'),
    takeaway: marks.has('takeaway'),
    shift: marks.has('shift'),
    text,
    sentences: [],
  };
  for (const sentence of splitIntoSentences(text)) {
    paragraph.sentences.push(talk.sentences.length);
    talk.sentences.push({ text: sentence.text, paragraph: index });
  }
  talk.paragraphs.push(paragraph);
}

/** The sentences of one paragraph that hold the verbatim answer. */
function answerSentences(talk: MarkedTalk, question: string, answer: string): number[] {
  for (const paragraph of talk.paragraphs) {
    const at = paragraph.text.indexOf(answer);
    if (at < 0) continue;
    const sentences = splitIntoSentences(paragraph.text);
    return paragraph.sentences.filter((_, k) => {
      const start = sentences[k]!.at;
      const end = start + sentences[k]!.text.length;
      return start < at + answer.length && end > at;
    });
  }
  throw new Error(`${talk.name}: the answer to "${question}" is not verbatim in one paragraph`);
}

/** Parses one talk file (format: bench/frozen/README.md). */
function parseMarkedTalk(set: string, name: string, source: string): MarkedTalk {
  const header = (key: string) =>
    new RegExp(`^# ${key}: *(.+)$`, 'm').exec(source)?.[1]?.trim() ?? '';
  const voices = Object.fromEntries(
    [...header('voices').matchAll(/([A-Z])=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
  );
  const talk: MarkedTalk = {
    set,
    name,
    title: header('title'),
    style: header('style'),
    voices,
    wordsPerMinute: Number(header('rate')) || 160,
    paragraphs: [],
    sentences: [],
    questions: [],
  };
  const [body = '', questions = ''] = source.split(/^## questions\s*$/m);
  for (const line of body.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('# ')) continue;
    parseParagraph(talk, line);
  }
  for (const pair of questions.matchAll(/^Q: *(.+)\n+A: *(.+)$/gm)) {
    const question = pair[1]!.trim();
    const answer = pair[2]!.trim();
    talk.questions.push({ question, answer, sentences: answerSentences(talk, question, answer) });
  }
  return talk;
}

export async function loadMarkedTalks(set: string, dir: string): Promise<MarkedTalk[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+-.*\.txt$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) =>
      parseMarkedTalk(set, file.replace(/\.txt$/, ''), await readFile(join(dir, file), 'utf8')),
    ),
  );
}

/** Pauses after a sentence inside a paragraph, and after a paragraph, cycled as a speaker's vary. */
const SENTENCE_PAUSES_MS = [350, 500, 300, 450, 600];
const PARAGRAPH_PAUSES_MS = [1100, 1600, 2000, 1300];

function voiceOf(spec: string): Pick<SpokenPart, 'engine' | 'voice'> {
  return spec === 'festival'
    ? { engine: 'festival' }
    : { engine: 'espeak', voice: spec.replace(/^espeak(?:-ng)?:/, '') };
}

/** Speaks the talk sentence by sentence into one 16 kHz WAV; returns each sentence's span. */
function renderMarkedTalk(talk: MarkedTalk, outWav: string): Promise<Span[]> {
  const parts: SpokenPart[] = talk.sentences.map((sentence, i) => {
    const paragraph = talk.paragraphs[sentence.paragraph]!;
    const lastOfParagraph = paragraph.sentences.at(-1) === i;
    return {
      text: sentence.text,
      ...voiceOf(talk.voices[paragraph.speaker] ?? 'festival'),
      wordsPerMinute: talk.wordsPerMinute,
      pauseAfterMs: lastOfParagraph
        ? PARAGRAPH_PAUSES_MS[sentence.paragraph % PARAGRAPH_PAUSES_MS.length]
        : SENTENCE_PAUSES_MS[i % SENTENCE_PAUSES_MS.length],
    };
  });
  return speakWithPauses(parts, outWav, { pausesMs: [0] });
}

/** Where a talk's transcript is kept in `transcriptDir`. */
export const transcriptFile = (transcriptDir: string, talk: { name: string }) =>
  join(transcriptDir, `${talk.name}.json.gz`);

/**
 * The talk spoken and transcribed, from `transcriptDir` when this exact text was transcribed
 * before; otherwise spoken and transcribed now, and kept there.
 */
export async function spokenMarkedTalk(
  talk: MarkedTalk,
  transcriptDir: string,
): Promise<SpokenMarkedTalk> {
  await mkdir(transcriptDir, { recursive: true });
  const file = transcriptFile(transcriptDir, talk);
  const key = JSON.stringify(talk);
  if (existsSync(file)) {
    const kept = JSON.parse(gunzipSync(await readFile(file)).toString('utf8')) as {
      key: string;
      transcript: Transcript;
      sentenceSpans: Span[];
      engine: string;
    };
    // Today's word rules apply to a kept transcript too, as they do to stored ones.
    if (kept.key === key)
      return {
        ...talk,
        transcript: withWrittenWords(kept.transcript),
        sentenceSpans: kept.sentenceSpans,
        engine: kept.engine,
      };
  }
  const wav = join(transcriptDir, `${talk.name}.wav`);
  try {
    const sentenceSpans = await renderMarkedTalk(talk, wav);
    const engine = createSpeechEngine();
    const transcript = await engine.transcribe(wav, { language: 'en' });
    const kept = { key, transcript, sentenceSpans, engine: engine.name };
    await writeFile(file, gzipSync(JSON.stringify(kept), { level: 9 }));
    return { ...talk, transcript, sentenceSpans, engine: engine.name };
  } finally {
    await rm(wav, { force: true });
  }
}

/** The span from the first to the last of the given sentences. */
export function spanOf(talk: SpokenMarkedTalk, sentences: readonly number[]): Span {
  return {
    startMs: talk.sentenceSpans[sentences[0]!]!.startMs,
    endMs: talk.sentenceSpans[sentences.at(-1)!]!.endMs,
  };
}

/** A paragraph's span. */
export function paragraphSpan(talk: SpokenMarkedTalk, paragraph: number): Span {
  return spanOf(talk, talk.paragraphs[paragraph]!.sentences);
}
