/**
 * Rewrites the length a container's header claims while leaving every packet as it is: the file a
 * dishonest client sends to be priced for less than it holds. An MP4/MOV states its length in
 * the movie header (mvhd), each track header (tkhd), each media header (mdhd) and, when
 * fragmented, the movie extends header (mehd); a WebM/Matroska file in the Segment Info's
 * Duration. Players and ffprobe's format line believe these numbers; the packets do not change.
 */
import { readFile, writeFile } from 'node:fs/promises';

/** A rewritten duration field: where it sits and the value it now holds, in its own timescale. */
export interface PatchedDuration {
  /** The box path (e.g. `moov/trak/mdia/mdhd`) or the element name (`Segment/Info/Duration`). */
  field: string;
  /** In the field's own units: its timescale for boxes, TimestampScale ticks for Matroska. */
  value: number;
}

// Boxes whose children hold the headers; media data and sample tables are skipped whole.
const ISO_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'mvex']);
// Where the creation and modification times end: the timescale or track id follows them.
const TIMES_BYTES = { 0: 8, 1: 16 } as const;

interface IsoBox {
  type: string;
  path: string;
  /** Offset of the box's payload (after the size, type and any 64-bit size). */
  body: number;
  end: number;
}

/** The boxes of `bytes[start, end)`, descending into the containers above. */
function* isoBoxes(bytes: Buffer, start: number, end: number, parent = ''): Generator<IsoBox> {
  let at = start;
  while (at + 8 <= end) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(bytes.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) {
      size = end - at; // the box runs to the end of its parent
    }
    if (size < body - at || at + size > end) {
      throw new Error(`The ${type} box at byte ${at} claims ${size} bytes; the file is damaged.`);
    }
    const path = parent ? `${parent}/${type}` : type;
    yield { type, path, body, end: at + size };
    if (ISO_CONTAINERS.has(type)) yield* isoBoxes(bytes, body, at + size, path);
    at += size;
  }
}

function readUint(bytes: Buffer, at: number, wide: boolean): number {
  return wide ? Number(bytes.readBigUInt64BE(at)) : bytes.readUInt32BE(at);
}

function writeUint(bytes: Buffer, at: number, wide: boolean, value: number): void {
  if (wide) bytes.writeBigUInt64BE(BigInt(value), at);
  else bytes.writeUInt32BE(Math.min(value, 0xffffffff), at);
}

function versionOf(bytes: Buffer, box: IsoBox): 0 | 1 {
  const version = bytes[box.body];
  if (version !== 0 && version !== 1) {
    throw new Error(`The ${box.path} box has version ${version}; only 0 and 1 exist.`);
  }
  return version;
}

/**
 * Sets every header duration of an MP4/MOV held in `bytes` to `durationSec`, in place, for
 * version 0 (32-bit) and version 1 (64-bit) boxes alike. Returns the fields rewritten.
 */
export function patchIsoBmffDurations(bytes: Buffer, durationSec: number): PatchedDuration[] {
  const boxes = [...isoBoxes(bytes, 0, bytes.length)];
  const mvhd = boxes.find((box) => box.path === 'moov/mvhd');
  if (!mvhd) throw new Error('No movie header (moov/mvhd): not an MP4 or MOV file.');
  const movieVersion = versionOf(bytes, mvhd);
  const movieTimescale = bytes.readUInt32BE(mvhd.body + 4 + TIMES_BYTES[movieVersion]);
  const patched: PatchedDuration[] = [];
  for (const box of boxes) {
    const version = ['mvhd', 'tkhd', 'mdhd', 'mehd'].includes(box.type)
      ? versionOf(bytes, box)
      : undefined;
    if (version === undefined) continue;
    const wide = version === 1;
    const afterTimes = box.body + 4 + TIMES_BYTES[version];
    let at: number;
    let timescale = movieTimescale;
    if (box.type === 'mvhd') {
      at = afterTimes + 4;
    } else if (box.type === 'tkhd') {
      at = afterTimes + 8; // track id, reserved; the duration is in the movie's timescale
    } else if (box.type === 'mdhd') {
      timescale = bytes.readUInt32BE(afterTimes);
      at = afterTimes + 4;
    } else {
      at = box.body + 4; // mehd: the fragment duration follows version and flags
    }
    if (at + (wide ? 8 : 4) > box.end) throw new Error(`The ${box.path} box is too short.`);
    const value = Math.round(durationSec * timescale);
    writeUint(bytes, at, wide, value);
    patched.push({ field: box.path, value: readUint(bytes, at, wide) });
  }
  return patched;
}

// Matroska element ids, with their length marker bits as the specification writes them.
const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMESTAMP_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const DEFAULT_TIMESTAMP_SCALE = 1_000_000; // nanoseconds per tick: milliseconds

interface EbmlElement {
  id: number;
  /** Offset of the element's data. */
  data: number;
  /** Offset after its data; the parent's end when the size is unknown (live recordings). */
  end: number;
}

/** A variable-length integer at `at`: its length in bytes and its value (marker kept for ids). */
function readVint(bytes: Buffer, at: number, keepMarker: boolean) {
  const first = bytes[at];
  if (first === undefined || first === 0) throw new Error(`No EBML number at byte ${at}.`);
  const length = Math.clz32(first) - 23; // leading zeros within the first byte, plus one
  if (at + length > bytes.length) throw new Error(`The EBML number at byte ${at} is cut short.`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { length, value, allOnes };
}

function* ebmlChildren(bytes: Buffer, start: number, end: number): Generator<EbmlElement> {
  let at = start;
  while (at < end) {
    const id = readVint(bytes, at, true);
    const size = readVint(bytes, at + id.length, false);
    const data = at + id.length + size.length;
    const elementEnd = size.allOnes ? end : data + size.value;
    if (elementEnd > end) throw new Error(`The element at byte ${at} runs past its parent.`);
    yield { id: id.value, data, end: elementEnd };
    // An element of unknown size cannot be stepped over: whatever follows is inside it.
    if (size.allOnes && id.value !== SEGMENT) return;
    at = elementEnd;
  }
}

/**
 * Sets the Segment Info Duration of a WebM/Matroska file held in `bytes` to `durationSec`, in
 * place, keeping the float's width (4 or 8 bytes). Throws when the file states no duration.
 */
export function patchMatroskaDuration(bytes: Buffer, durationSec: number): PatchedDuration[] {
  if (bytes.length < 4 || bytes.readUInt32BE(0) !== EBML_HEADER) {
    throw new Error('No EBML header: not a WebM or Matroska file.');
  }
  const segment = [...ebmlChildren(bytes, 0, bytes.length)].find((e) => e.id === SEGMENT);
  if (!segment) throw new Error('No Segment: not a WebM or Matroska file.');
  for (const element of ebmlChildren(bytes, segment.data, segment.end)) {
    if (element.id !== INFO) continue;
    const fields = [...ebmlChildren(bytes, element.data, element.end)];
    const scaleField = fields.find((field) => field.id === TIMESTAMP_SCALE);
    let scale = DEFAULT_TIMESTAMP_SCALE;
    if (scaleField) {
      scale = 0;
      for (let at = scaleField.data; at < scaleField.end; at++) scale = scale * 256 + bytes[at]!;
    }
    const duration = fields.find((field) => field.id === DURATION);
    if (!duration) break;
    const ticks = (durationSec * 1e9) / scale;
    const width = duration.end - duration.data;
    if (width === 4) bytes.writeFloatBE(ticks, duration.data);
    else if (width === 8) bytes.writeDoubleBE(ticks, duration.data);
    else throw new Error(`The Duration element is ${width} bytes wide; a float is 4 or 8.`);
    const value =
      width === 4 ? bytes.readFloatBE(duration.data) : bytes.readDoubleBE(duration.data);
    return [{ field: 'Segment/Info/Duration', value }];
  }
  throw new Error('The Segment Info states no Duration to rewrite.');
}

/**
 * Copies `file` to `out` with its header claiming `durationSec`: WebM/Matroska (told by its
 * EBML magic) or MP4/MOV. Returns the fields rewritten.
 */
export async function writeWithHeaderDuration(
  file: string,
  out: string,
  durationSec: number,
): Promise<PatchedDuration[]> {
  const bytes = await readFile(file);
  const patched =
    bytes.length >= 4 && bytes.readUInt32BE(0) === EBML_HEADER
      ? patchMatroskaDuration(bytes, durationSec)
      : patchIsoBmffDurations(bytes, durationSec);
  await writeFile(out, bytes);
  return patched;
}
