// Helpers for the speech tests (not part of the public API).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Transcript } from '../../src/asr/types';

const execFileAsync = promisify(execFile);

export { SHARED_MEDIA_DIR, hasSharedMedia } from './recordings';

export const hasFestival = (() => {
  try {
    return existsSync('/usr/bin/text2wave') || existsSync('/usr/local/bin/text2wave');
  } catch {
    // Unreadable paths: no festival for the test voices.
    return false;
  }
})();

/** Speaks `text` with festival's HTS voice (closer to natural speech than espeak) into a WAV file. */
export async function synthesizeSpeech(
  text: string,
  directory: string,
  name = 'speech',
): Promise<string> {
  const textFile = join(directory, `${name}.txt`);
  const wavFile = join(directory, `${name}.wav`);
  await writeFile(textFile, text);
  await execFileAsync(
    'text2wave',
    ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', wavFile, textFile],
    {
      timeout: 60_000,
    },
  );
  return wavFile;
}

/** The guarantees every engine gives about word timings (spec: word timings for every word). */
export function expectValidWordTimings(transcript: Transcript): void {
  const words = transcript.segments.flatMap((s) => s.words);
  expect(words.length).toBeGreaterThan(0);
  let previousEnd = 0;
  for (const word of words) {
    expect(Number.isInteger(word.startMs) && Number.isInteger(word.endMs)).toBe(true);
    expect(
      word.startMs,
      `"${word.text}" starts before the previous word ends`,
    ).toBeGreaterThanOrEqual(previousEnd);
    expect(word.endMs, `"${word.text}" has no duration`).toBeGreaterThan(word.startMs);
    expect(word.endMs, `"${word.text}" ends after the audio`).toBeLessThanOrEqual(
      transcript.durationMs,
    );
    expect(word.text.trim()).toBe(word.text);
    expect(word.confidence).toBeGreaterThanOrEqual(0);
    expect(word.confidence).toBeLessThanOrEqual(1);
    previousEnd = word.endMs;
  }
}

export function transcriptText(transcript: Transcript): string {
  return transcript.segments.map((s) => s.text).join(' ');
}

export { englishRecordings, joinRecordings, type Recording } from './recordings';
