/**
 * The highlight evaluation set (bench/highlights/README.md): parsing the hand-written talks, speaking
 * them paragraph by paragraph with 1-2 s pauses, transcribing once with the real speech engine and
 * caching the result, so the judges can be compared cheaply and on the same transcript.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSpeechEngine, type Transcript } from '../../packages/ai/src/asr/index';
import { speakWithPauses } from '../../packages/media/test/support/index';

const HERE = import.meta.dirname;
const TALKS_DIR = join(HERE, 'talks');
const CACHE_DIR = join(HERE, '.cache');

export type ParagraphKind = 'highlight' | 'housekeeping' | 'body';

export interface TalkParagraph {
  kind: ParagraphKind;
  text: string;
}

export interface Talk {
  name: string;
  voice: string;
  topic: string;
  paragraphs: TalkParagraph[];
}

/** A talk as spoken: its transcript and where each paragraph lies in it. */
export interface SpokenTalk extends Talk {
  transcript: Transcript;
  spans: { startMs: number; endMs: number }[];
  engine: string;
}

function parseTalk(name: string, source: string): Talk {
  const header = (key: string) =>
    new RegExp(`^# ${key}: *(.+)$`, 'm').exec(source)?.[1]?.trim() ?? '';
  const body = source
    .split('\n')
    .filter((line) => !line.startsWith('# '))
    .join('\n');
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((block) => block.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .map((block): TalkParagraph => {
      if (block.startsWith('>> ')) return { kind: 'highlight', text: block.slice(3) };
      if (block.startsWith('-- ')) return { kind: 'housekeeping', text: block.slice(3) };
      return { kind: 'body', text: block };
    });
  return { name, voice: header('voice') || 'espeak:en-us', topic: header('topic'), paragraphs };
}

export async function loadTalks(): Promise<Talk[]> {
  const files = (await readdir(TALKS_DIR)).filter((f) => f.endsWith('.txt')).sort();
  return Promise.all(
    files.map(async (file) =>
      parseTalk(file.replace(/\.txt$/, ''), await readFile(join(TALKS_DIR, file), 'utf8')),
    ),
  );
}

/** Pauses between paragraphs cycle through these, as a speaker's would vary. */
const PAUSES_MS = [1000, 1500, 2000, 1200];

/** Speaks the talk into one 16 kHz WAV; returns each paragraph's span in it. */
function renderTalk(talk: Talk, outWav: string): Promise<{ startMs: number; endMs: number }[]> {
  const voice =
    talk.voice === 'festival'
      ? ({ engine: 'festival' } as const)
      : ({ engine: 'espeak', voice: talk.voice.replace(/^espeak:/, '') } as const);
  return speakWithPauses(
    talk.paragraphs.map((paragraph) => paragraph.text),
    outWav,
    { ...voice, pausesMs: PAUSES_MS },
  );
}

/** The talk spoken and transcribed, from the cache when this text was transcribed before. */
export async function spokenTalk(talk: Talk): Promise<SpokenTalk> {
  await mkdir(CACHE_DIR, { recursive: true });
  const cacheFile = join(CACHE_DIR, `${talk.name}.json`);
  const key = JSON.stringify(talk);
  if (existsSync(cacheFile)) {
    const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as SpokenTalk & { key: string };
    if (cached.key === key) return cached;
  }
  const wav = join(CACHE_DIR, `${talk.name}.wav`);
  const spans = await renderTalk(talk, wav);
  const engine = createSpeechEngine();
  const transcript = await engine.transcribe(wav, { language: 'en' });
  const spoken: SpokenTalk = { ...talk, transcript, spans, engine: engine.name };
  await writeFile(cacheFile, JSON.stringify({ ...spoken, key }));
  await rm(wav, { force: true });
  return spoken;
}
