// Real English recordings installed on this machine, for speech tests and the speed bench
// (WER and speed of the models on real speech). No vitest here: the bench imports it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';

/** ../shared/media relative to the repo root: real recordings, absent from a user's clone. */
export const SHARED_MEDIA_DIR = fileURLToPath(
  new URL('../../../../../shared/media/', import.meta.url),
);
export const hasSharedMedia = existsSync(join(SHARED_MEDIA_DIR, 'jfk.flac'));

/** LibriVox read speech shipped by Debian's pocketsphinx-testdata (BSD; scripts/setup.sh installs it). */
const POCKETSPHINX_DATA_DIR = '/usr/share/pocketsphinx/test/data';

/** A real English recording (not made by this project) with what was said. */
export interface Recording {
  name: string;
  file: string;
  reference: string;
  /** Only this part of the file (the English half of the bilingual recording). */
  fromS?: number;
  forS?: number;
}

const MIT_PARAGRAPHS =
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and ' +
  'associated documentation files (the "Software"), to deal in the Software without restriction, ' +
  'including without limitation the rights to use, copy, modify, merge, publish, distribute, ' +
  'sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is ' +
  'furnished to do so, subject to the following conditions: The above copyright notice and this ' +
  'permission notice shall be included in all copies or substantial portions of the Software.';

/**
 * Every real English recording installed here, with its reference text: jfk.flac and the English
 * half of multilingual-en-de.mp3 (../shared/media), and LibriVox's Sense and Sensibility and the
 * "cards" recordings (pocketsphinx-testdata). Absent ones are left out.
 */
export function englishRecordings(): Recording[] {
  const recordings: Recording[] = [];
  if (hasSharedMedia) {
    recordings.push(
      {
        name: 'jfk',
        file: join(SHARED_MEDIA_DIR, 'jfk.flac'),
        reference:
          'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.',
      },
      {
        name: 'mit-licence-en',
        file: join(SHARED_MEDIA_DIR, 'multilingual-en-de.mp3'),
        reference: MIT_PARAGRAPHS,
        fromS: 0,
        forS: 29.5,
      },
    );
  }
  for (const [folder, listing] of [
    ['librivox', 'transcription'],
    ['cards', 'cards.transcription'],
  ] as const) {
    const dir = join(POCKETSPHINX_DATA_DIR, folder);
    if (!existsSync(join(dir, listing))) continue;
    // "<s> words </s> (file-id)" per line.
    for (const line of readFileSync(join(dir, listing), 'utf8').split('\n')) {
      const match = /<s>(.*)<\/s>\s*\((.+)\)/.exec(line);
      if (!match) continue;
      recordings.push({
        name: `${folder}/${match[2]!}`,
        file: join(dir, `${match[2]!}.wav`),
        reference: match[1]!.trim(),
      });
    }
  }
  return recordings;
}

/**
 * The recordings one after another, each followed by `gapsMs[i % gapsMs.length]` of silence, as a
 * 16 kHz mono WAV. Returns the reference text of the whole and where each recording starts.
 */
export async function joinRecordings(
  recordings: readonly Recording[],
  outWav: string,
  gapsMs: readonly number[] = [800],
): Promise<{ file: string; reference: string; startsMs: number[] }> {
  const inputs: string[] = [];
  const filters: string[] = [];
  recordings.forEach((recording, i) => {
    if (recording.fromS !== undefined) inputs.push('-ss', String(recording.fromS));
    if (recording.forS !== undefined) inputs.push('-t', String(recording.forS));
    inputs.push('-i', recording.file);
    const gapS = (gapsMs[i % gapsMs.length]! / 1000).toFixed(3);
    filters.push(
      `[${i}:a]aformat=sample_rates=16000:channel_layouts=mono,apad=pad_dur=${gapS}[a${i}]`,
    );
  });
  const labels = recordings.map((_, i) => `[a${i}]`).join('');
  await runFfmpeg(
    [
      ...inputs,
      '-filter_complex',
      `${filters.join(';')};${labels}concat=n=${recordings.length}:v=0:a=1[out]`,
      '-map',
      '[out]',
      '-c:a',
      'pcm_s16le',
      outWav,
    ],
    { timeoutMs: 300_000 },
  );
  const startsMs: number[] = [];
  let at = 0;
  for (const [i, recording] of recordings.entries()) {
    startsMs.push(at);
    at += (await durationS(recording)) * 1000 + gapsMs[i % gapsMs.length]!;
  }
  return { file: outWav, reference: recordings.map((r) => r.reference).join(' '), startsMs };
}

async function durationS(recording: Recording): Promise<number> {
  if (recording.forS !== undefined) return recording.forS;
  return (await probeMedia(recording.file)).durationMs / 1000;
}
