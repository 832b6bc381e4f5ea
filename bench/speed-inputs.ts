/**
 * The speed bench's inputs: real English speech (every recording installed
 * here, joined in different orders with different pauses, never one sample looped) over
 * real-looking video (a film clip with a face and cuts, people walking, a face moving over a
 * building), not a test pattern.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';
import {
  englishRecordings,
  joinRecordings,
  type Recording,
} from '../packages/ai/test/support/recordings.js';

const OPENCV_DATA = '/usr/share/doc/opencv-doc/examples/data';

export interface SpeechInput {
  /** The talk: real-looking video with the joined speech. */
  video: string;
  /** Its audio as the task hears it (16 kHz mono). */
  wav: string;
  seconds: number;
  /** What is said, in order. */
  reference: string;
}

/** A deterministic shuffle (a small LCG), so every run joins the same orders. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * At least `seconds` of real speech: sets of every recording, each set in its own order and with
 * its own pauses, joined whole (so the reference is exact). Undefined without recordings.
 */
export async function realSpeech(
  dir: string,
  seconds: number,
): Promise<{ wav: string; seconds: number; reference: string } | undefined> {
  const recordings = englishRecordings();
  if (recordings.length < 3) return undefined;
  const sets: { wav: string; seconds: number; reference: string }[] = [];
  const gapPatterns = [[700, 1200], [1500, 600, 900], [1000], [800, 2000, 650, 1100]];
  for (let k = 0; k < 6; k++) {
    const order: Recording[] = shuffled(recordings, 17 + k);
    const joined = await joinRecordings(
      order,
      path.join(dir, `speech-set-${k}.wav`),
      gapPatterns[k % gapPatterns.length],
    );
    sets.push({
      wav: joined.file,
      seconds: (await probeMedia(joined.file)).durationMs / 1000,
      reference: joined.reference,
    });
  }
  const chosen: typeof sets = [];
  let total = 0;
  for (let k = 0; total < seconds; k++) {
    const set = sets[k % sets.length]!;
    chosen.push(set);
    total += set.seconds;
  }
  const list = path.join(dir, `speech-${seconds}.txt`);
  await fs.writeFile(list, chosen.map((set) => `file '${set.wav}'`).join('\n'));
  const wav = path.join(dir, `speech-${seconds}.wav`);
  await runFfmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', wav]);
  return { wav, seconds: total, reference: chosen.map((set) => set.reference).join(' ') };
}

/**
 * About two minutes of real-looking 640x360 video, made once: the Megamind clip (a face, camera
 * moves, cuts), a face photo drifting over a street, people walking (opencv-doc). Undefined when
 * opencv-doc is not installed.
 */
async function pictureLoop(dir: string): Promise<string | undefined> {
  const clip = path.join(OPENCV_DATA, 'Megamind.avi');
  const walk = path.join(OPENCV_DATA, 'vtest.avi');
  const face = path.join(OPENCV_DATA, 'messi5.jpg');
  const street = path.join(OPENCV_DATA, 'building.jpg');
  if (![clip, walk, face, street].every((file) => existsSync(file))) return undefined;
  const loop = path.join(dir, 'picture-loop.mp4');
  if (existsSync(loop)) return loop;
  const fit = 'scale=640:360:force_original_aspect_ratio=increase,crop=640:360,fps=25,setsar=1';
  await runFfmpeg([
    ...['-i', clip, '-loop', '1', '-t', '20', '-i', street, '-loop', '1', '-t', '20', '-i', face],
    ...['-i', walk],
    '-filter_complex',
    [
      `[0:v]${fit}[a]`,
      `[1:v]${fit}[bg]`,
      "[2:v]crop=130:150:180:45,scale=104:120[f];[bg][f]overlay=x='260+200*sin(t/3)':y='120+40*sin(t/2)':shortest=1,fps=25,format=yuv420p[b]",
      `[3:v]${fit}[c]`,
      '[a][b][c]concat=n=3:v=1:a=0,format=yuv420p[v]',
    ].join(';'),
    ...['-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-g', '50', loop],
  ]);
  return loop;
}

/** The talk of at least `seconds`: real speech over the real-looking picture, looped to length. */
export async function talkInput(dir: string, seconds: number): Promise<SpeechInput | undefined> {
  const speech = await realSpeech(dir, seconds);
  const picture = await pictureLoop(dir);
  if (!speech || !picture) return undefined;
  const video = path.join(dir, `talk-${seconds}.mp4`);
  await runFfmpeg([
    ...['-stream_loop', '-1', '-i', picture, '-i', speech.wav],
    ...['-map', '0:v', '-map', '1:a', '-t', speech.seconds.toFixed(2)],
    ...['-c:v', 'copy', '-c:a', 'aac', '-b:a', '64k', video],
  ]);
  return { video, wav: speech.wav, seconds: speech.seconds, reference: speech.reference };
}
