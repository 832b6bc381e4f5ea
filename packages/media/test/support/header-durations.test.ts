import { describe, expect, it } from 'vitest';
import { patchIsoBmffDurations, patchMatroskaDuration } from './header-durations.js';

// ---- ISO BMFF (MP4, MOV): boxes built by hand, the layout ISO/IEC 14496-12 gives them ----------

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const u64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
};
const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
};
/** A box with a 64-bit size (size field 1), as large media data boxes are written. */
const wideBox = (type: string, body: Buffer) =>
  Buffer.concat([u32(1), Buffer.from(type, 'latin1'), u64(16 + body.length), body]);
const versionAndFlags = (version: 0 | 1) => Buffer.from([version, 0, 0, 0]);
const uint = (version: 0 | 1, value: number) => (version === 1 ? u64(value) : u32(value));
/** Creation and modification times: distinct values, to see that they are left alone. */
const times = (version: 0 | 1) => Buffer.concat([uint(version, 111), uint(version, 222)]);

const mvhd = (version: 0 | 1, timescale: number, duration: number) =>
  box('mvhd', versionAndFlags(version), times(version), u32(timescale), uint(version, duration));
const tkhd = (version: 0 | 1, trackId: number, duration: number) =>
  box(
    'tkhd',
    versionAndFlags(version),
    times(version),
    u32(trackId),
    u32(0),
    uint(version, duration),
  );
const mdhd = (version: 0 | 1, timescale: number, duration: number) =>
  box('mdhd', versionAndFlags(version), times(version), u32(timescale), uint(version, duration));
const mehd = (version: 0 | 1, duration: number) =>
  box('mehd', versionAndFlags(version), uint(version, duration));

/** The duration field after `offset` bytes of payload, in a box of the given type. */
function durationOf(file: Buffer, type: string, nth = 0): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = file.indexOf(type, at + 1, 'latin1');
  const body = at + 4;
  const version = file[body] as 0 | 1;
  const read = (offset: number) =>
    version === 1 ? Number(file.readBigUInt64BE(offset)) : file.readUInt32BE(offset);
  const timesEnd = body + 4 + (version === 1 ? 16 : 8);
  if (type === 'mehd') return read(body + 4);
  return read(type === 'tkhd' ? timesEnd + 8 : timesEnd + 4);
}

const seventyMinutes = 70 * 60;

function movie(version: 0 | 1) {
  return Buffer.concat([
    box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2avc1mp41', 'latin1')),
    box(
      'moov',
      mvhd(version, 1000, seventyMinutes * 1000),
      box(
        'trak',
        tkhd(version, 1, seventyMinutes * 1000),
        box('mdia', mdhd(version, 12_800, seventyMinutes * 12_800)),
      ),
      box(
        'trak',
        tkhd(version, 2, seventyMinutes * 1000),
        box('mdia', mdhd(version, 44_100, seventyMinutes * 44_100)),
      ),
      box('mvex', mehd(version, seventyMinutes * 1000)),
    ),
    wideBox('mdat', Buffer.from('the packets, untouched')),
  ]);
}

describe('patchIsoBmffDurations', () => {
  it.each([0, 1] as const)(
    'rewrites mvhd, every tkhd and mdhd, and mehd of version %i boxes, each in its own timescale',
    (version) => {
      const file = movie(version);
      const before = Buffer.from(file);
      const patched = patchIsoBmffDurations(file, 20);
      expect(patched).toEqual([
        { field: 'moov/mvhd', value: 20_000 },
        { field: 'moov/trak/tkhd', value: 20_000 },
        { field: 'moov/trak/mdia/mdhd', value: 256_000 },
        { field: 'moov/trak/tkhd', value: 20_000 },
        { field: 'moov/trak/mdia/mdhd', value: 882_000 },
        { field: 'moov/mvex/mehd', value: 20_000 },
      ]);
      expect(file).toHaveLength(before.length);
      expect(durationOf(file, 'mvhd')).toBe(20_000);
      expect(durationOf(file, 'tkhd', 1)).toBe(20_000);
      expect(durationOf(file, 'mdhd', 1)).toBe(882_000);
      expect(durationOf(file, 'mehd')).toBe(20_000);
      // Only the durations changed: times, timescales, track ids and the packets did not.
      const changed = [...file.keys()].filter((i) => file[i] !== before[i]);
      const width = version === 1 ? 8 : 4;
      const fields = ['mvhd', 'tkhd', 'tkhd', 'mdhd', 'mdhd', 'mehd'].length;
      expect(changed.length).toBeLessThanOrEqual(fields * width);
      expect(file.subarray(-22).toString('latin1')).toBe('the packets, untouched');
      expect(file.readUInt32BE(file.indexOf('mdhd', 0, 'latin1') + 4 + 4 + 2 * width)).toBe(12_800);
    },
  );

  it('can claim a length past what 32 bits hold in a version 1 box', () => {
    const file = movie(1);
    patchIsoBmffDurations(file, 200 * 24 * 3600);
    expect(durationOf(file, 'mdhd', 1)).toBe(200 * 24 * 3600 * 44_100);
  });

  it('refuses what is not a movie, and a box that claims more bytes than the file has', () => {
    expect(() => patchIsoBmffDurations(box('ftyp', Buffer.alloc(8)), 20)).toThrow(/mvhd/);
    const cut = movie(0).subarray(0, 60);
    expect(() => patchIsoBmffDurations(cut, 20)).toThrow(/damaged/);
  });
});

// ---- Matroska (WebM): EBML elements built by hand ---------------------------------------------

/** An element: its id bytes (with the length marker), a size, its data. */
function element(id: number[], data: Buffer, size?: Buffer): Buffer {
  const length = size ?? Buffer.concat([Buffer.from([0x01]), u64(data.length).subarray(1)]);
  return Buffer.concat([Buffer.from(id), length, data]);
}
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
const ebmlHeader = element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x82], Buffer.from('webm')));
const float64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes;
};
const float32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeFloatBE(value);
  return bytes;
};
const durationElement = (value: Buffer) => element([0x44, 0x89], value);
const timestampScale = (nanoseconds: number) => element([0x2a, 0xd7, 0xb1], u32(nanoseconds));
const info = (...fields: Buffer[]) => element([0x15, 0x49, 0xa9, 0x66], Buffer.concat(fields));
const voidElement = element([0xec], Buffer.alloc(10));
const cluster = element([0x1f, 0x43, 0xb6, 0x75], Buffer.from('blocks, untouched'));
const segment = (children: Buffer[], size?: Buffer) =>
  element([0x18, 0x53, 0x80, 0x67], Buffer.concat(children), size);

/** The float in the Duration element (4 or 8 bytes). */
function matroskaDuration(file: Buffer): number {
  const at = file.indexOf(Buffer.from([0x44, 0x89]));
  const width = file.readUInt8(at + 2 + 7) === 4 ? 4 : 8;
  return width === 4 ? file.readFloatBE(at + 10) : file.readDoubleBE(at + 10);
}

describe('patchMatroskaDuration', () => {
  it('rewrites a 64-bit Duration in milliseconds, the default timestamp scale', () => {
    const file = Buffer.concat([
      ebmlHeader,
      segment([voidElement, info(durationElement(float64(4_200_000))), cluster]),
    ]);
    expect(patchMatroskaDuration(file, 20)).toEqual([
      { field: 'Segment/Info/Duration', value: 20_000 },
    ]);
    expect(matroskaDuration(file)).toBe(20_000);
    expect(file.subarray(-17).toString('latin1')).toBe('blocks, untouched');
  });

  it('keeps a 32-bit float 32-bit, and counts in the file own timestamp scale', () => {
    const file = Buffer.concat([
      ebmlHeader,
      segment([info(timestampScale(100_000), durationElement(float32(42_000_000)))]),
    ]);
    patchMatroskaDuration(file, 20);
    // 100 µs ticks: 20 s are 200 000 of them.
    expect(matroskaDuration(file)).toBe(200_000);
  });

  it('finds the Info of a segment of unknown size (a live recording)', () => {
    const file = Buffer.concat([
      ebmlHeader,
      segment([info(durationElement(float64(600_000))), cluster], UNKNOWN_SIZE),
    ]);
    patchMatroskaDuration(file, 20);
    expect(matroskaDuration(file)).toBe(20_000);
  });

  it('refuses a file that states no duration, and one that is not Matroska', () => {
    const noDuration = Buffer.concat([ebmlHeader, segment([info(timestampScale(1_000_000))])]);
    expect(() => patchMatroskaDuration(noDuration, 20)).toThrow(/no Duration/);
    expect(() => patchMatroskaDuration(movie(0), 20)).toThrow(/EBML/);
  });
});
