/**
 * Word times snapped to where speech really starts and stops. Whisper's word alignment
 * lets the first word after a pause swallow the silence before it (a "So" from 24.4 s to 25.6 s when it
 * is spoken at 26.8 s) and the last word before a pause run on into it. Clips start at the first
 * word's time and moments are cut at pauses, so these times must be right: we measure the audio's
 * loudness every 10 ms and move such word edges onto the speech.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { startProcess, toolPath } from '@moments/process';
import type { Transcript, TranscriptWord } from './types';

const FRAME_MS = 10;
const RATE = 16000;
const SAMPLES_PER_FRAME = (RATE * FRAME_MS) / 1000;

/**
 * Loudness (dBFS) of every 10 ms frame of the file's first audio stream. The 16 kHz mono WAV the
 * tasks hear (the extracted audio and its chunks) is read as it is; anything else is decoded by
 * ffmpeg to the same samples.
 */
export async function frameLoudness(file: string, signal?: AbortSignal): Promise<Float32Array> {
  const meter = loudnessMeter();
  // Int16Array reads the machine's byte order: WAV's little-endian words only where they agree.
  const pcm = endianness() === 'LE' ? await plainWavSamples(file) : undefined;
  if (pcm) {
    // The same samples ffmpeg would decode, without a process to start and a pipe to read.
    const stream = createReadStream(file, { start: pcm.start, end: pcm.end - 1, signal });
    for await (const chunk of stream) meter.add(chunk as Buffer);
    return meter.frames();
  }
  const started = startProcess(
    toolPath('ffmpeg'),
    [
      '-v',
      'error',
      '-i',
      file,
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      String(RATE),
      '-f',
      's16le',
      'pipe:1',
    ],
    { signal, stderrTailBytes: 2000 },
  );
  started.child.stdout?.on('data', (chunk: Buffer) => meter.add(chunk));
  const { exitCode, spawnError, stderrTail } = await started.exited;
  if (spawnError) throw spawnError;
  if (exitCode !== 0) {
    throw new Error(`ffmpeg could not decode the audio for onsets: ${stderrTail.trim()}`);
  }
  return meter.frames();
}

/** The loudness of 16-bit little-endian mono samples fed in pieces, one value per whole frame. */
function loudnessMeter() {
  const frames: number[] = [];
  let sum = 0;
  let count = 0;
  let carry: Buffer | undefined;
  return {
    add(chunk: Buffer) {
      let data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const usable = data.length - (data.length % 2);
      // Read as 16-bit words (a view needs an even offset: a piece that starts odd is copied).
      if (data.byteOffset % 2) data = Buffer.from(data);
      const samples = new Int16Array(data.buffer, data.byteOffset, usable / 2);
      for (let i = 0; i < samples.length; i++) {
        const sample = samples[i]! / 32768;
        sum += sample * sample;
        if (++count === SAMPLES_PER_FRAME) {
          frames.push(10 * Math.log10(sum / count + 1e-10));
          sum = 0;
          count = 0;
        }
      }
      carry = usable < data.length ? data.subarray(usable) : undefined;
    },
    frames: () => Float32Array.from(frames),
  };
}

/**
 * Where the samples of a 16 kHz mono 16-bit PCM WAV file lie (bytes), or undefined when the file
 * is anything else (another format, rate or layout, or no readable header).
 */
async function plainWavSamples(file: string): Promise<{ start: number; end: number } | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 4096));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
      return undefined;
    }
    let plain = false;
    for (let at = 12; at + 8 <= head.length;) {
      const id = head.toString('latin1', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 24 <= head.length) {
        plain =
          head.readUInt16LE(at + 8) === 1 && // PCM
          head.readUInt16LE(at + 10) === 1 && // mono
          head.readUInt32LE(at + 12) === RATE &&
          head.readUInt16LE(at + 22) === 16;
      }
      if (id === 'data') {
        const start = at + 8;
        // A header written before the length was known says 0 or the largest size: to the end.
        const end = length > 0 && start + length <= size ? start + length : size;
        return plain ? { start, end } : undefined;
      }
      at += 8 + length + (length % 2);
    }
    return undefined;
  } catch {
    return undefined; // unreadable here: ffmpeg reads it, or says why it cannot
  } finally {
    await handle?.close();
  }
}

/** A frame is speech when it is within this many dB of the loud speech level. */
const SPEECH_RANGE_DB = 35;
/** A quiet run this long is a pause between words, not a stop consonant inside one. */
const MIN_PAUSE_FRAMES = 25;
/** Kept before the first and after the last loud frame, so soft consonants ("th", "s") stay in. */
const MARGIN_MS = 60;
/** How far an edge may move onto speech that no word claims. */
const MAX_SHIFT_MS = 1500;

interface Pause {
  startMs: number;
  endMs: number;
}

/** Quiet runs of at least MIN_PAUSE_FRAMES, in time order; none when the file has no clear contrast. */
export function findPauses(loudness: Float32Array): Pause[] {
  if (loudness.length === 0) return [];
  const sorted = Float32Array.from(loudness).sort();
  const loud = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const floor = sorted[Math.floor(sorted.length * 0.05)] ?? -100;
  if (loud - floor < 15) return [];
  const threshold = Math.max(floor + 10, loud - SPEECH_RANGE_DB);
  const pauses: Pause[] = [];
  let runStart = -1;
  for (let f = 0; f <= loudness.length; f++) {
    const quiet = f < loudness.length && (loudness[f] ?? -100) < threshold;
    if (quiet && runStart < 0) runStart = f;
    if (!quiet && runStart >= 0) {
      if (f - runStart >= MIN_PAUSE_FRAMES)
        pauses.push({ startMs: runStart * FRAME_MS, endMs: f * FRAME_MS });
      runStart = -1;
    }
  }
  return pauses;
}

const TERMINAL = /[.!?…。！？]["'”’)\]]*$/u;

/**
 * Re-times the words next to pauses: a word that straddles a pause is put on the side it belongs to
 * (after the pause when it opens a sentence, before it when it closes one), a word that starts late
 * after a pause starts at the speech onset, and one that stops short of a pause ends where the speech
 * does. Words inside fluent speech keep Whisper's times; order and positive lengths are kept.
 */
export function snapWordsToSpeech(transcript: Transcript, loudness: Float32Array): Transcript {
  const pauses = findPauses(loudness);
  if (pauses.length === 0) return transcript;
  const segments = transcript.segments.map((segment) => ({
    ...segment,
    words: segment.words.map((word) => ({ ...word })),
  }));
  const words: { word: TranscriptWord; lastOfSegment: boolean }[] = segments.flatMap((segment) =>
    segment.words.map((word, k) => ({ word, lastOfSegment: k === segment.words.length - 1 })),
  );
  let p = 0;
  for (const [i, { word, lastOfSegment }] of words.entries()) {
    const next = words[i + 1]?.word;
    while (p < pauses.length && pauses[p]!.endMs <= word.startMs) p++;
    // The longest pause inside the word.
    let inside: Pause | undefined;
    for (let q = p; q < pauses.length && pauses[q]!.startMs < word.endMs; q++) {
      const pause = pauses[q]!;
      const within = Math.min(pause.endMs, word.endMs) - Math.max(pause.startMs, word.startMs);
      if (
        within >= MIN_PAUSE_FRAMES * FRAME_MS &&
        (!inside || within > inside.endMs - inside.startMs)
      )
        inside = pause;
    }
    if (inside) {
      const closesSentence = TERMINAL.test(word.text) || lastOfSegment || !next;
      if (closesSentence && inside.startMs > word.startMs) {
        word.endMs = Math.max(word.startMs + 1, Math.min(word.endMs, inside.startMs + MARGIN_MS));
      } else if (inside.endMs < (next?.endMs ?? transcript.durationMs)) {
        const startMs = Math.max(word.startMs, inside.endMs - MARGIN_MS);
        const limit = (next?.endMs ?? transcript.durationMs) - 1;
        word.startMs = startMs;
        word.endMs = Math.min(limit, Math.max(word.endMs, startMs + 150));
        if (next && next.startMs < word.endMs) next.startMs = word.endMs;
      }
    }
  }
  // Second pass, once every word sits on its side of the pauses.
  for (const [i, { word }] of words.entries()) {
    const previous = words[i - 1]?.word;
    const next = words[i + 1]?.word;
    // A late start just after a pause: the speech began at the pause's end.
    const before = pauses.findLast(
      (pause) => pause.endMs <= word.startMs && pause.endMs > word.startMs - MAX_SHIFT_MS,
    );
    if (before && (!previous || previous.endMs <= before.startMs + MARGIN_MS))
      word.startMs = Math.max(
        previous?.endMs ?? 0,
        Math.min(word.startMs, before.endMs - MARGIN_MS),
      );
    // An early end before a pause: the speech went on until the pause began.
    const after = pauses.find(
      (pause) => pause.startMs >= word.endMs && pause.startMs < word.endMs + MAX_SHIFT_MS,
    );
    if (after && (!next || next.startMs >= after.endMs - MARGIN_MS))
      word.endMs = Math.max(
        word.endMs,
        Math.min(after.startMs + MARGIN_MS, next?.startMs ?? transcript.durationMs),
      );
  }
  for (const segment of segments) {
    const first = segment.words[0];
    const last = segment.words[segment.words.length - 1];
    if (first) segment.startMs = first.startMs;
    if (last) segment.endMs = last.endMs;
  }
  return { ...transcript, segments };
}
