import { describe, expect, it } from 'vitest';
import { PacketExtent } from './length.js';

/** ffprobe's packet lines (stream_index,pts_time,dts_time,duration_time) into an extent. */
function extentOf(streams: number[], lines: string[]): PacketExtent {
  const extent = new PacketExtent(streams);
  for (const line of lines) extent.add(line);
  return extent;
}

describe('PacketExtent: the real length from the packets', () => {
  it('ends where the last packet of the chosen streams ends, whichever stream that is', () => {
    const extent = extentOf(
      [0, 1],
      [
        '0,0.000000,0.000000,1.000000',
        '1,0.000000,0.000000,0.064000',
        '1,4199.936000,4199.936000,0.064000',
        // Pictures are shown in their own order: the last one decoded is not the last shown.
        '0,4199.000000,4197.000000,1.000000',
        '0,4198.000000,4198.000000,1.000000',
      ],
    );
    expect(extent.packets).toBe(5);
    expect(extent.lengthMs()).toBe(4_200_000);
  });

  it('passes over streams it was not asked about, and lines that are not packets', () => {
    const extent = extentOf(
      [1],
      [
        '0,9000.000000,9000.000000,1.000000', // a subtitle or data stream that runs on
        '1,0.000000,0.000000,0.020000',
        '1,19.980000,19.980000,0.020000,', // side data after the fields
        '',
        'side_data_type=Skip Samples',
        'N/A,N/A,N/A,N/A',
      ],
    );
    expect(extent.packets).toBe(2);
    expect(extent.lengthMs()).toBe(20_000);
  });

  it('takes the decode time of a packet that has no presentation time, and no duration as 0', () => {
    expect(extentOf([0], ['0,0.000000,0.000000,N/A', '0,N/A,59.500000,N/A']).lengthMs()).toBe(
      59_500,
    );
  });

  it('counts from 0 past an encoder delay, and from the first packet of a recording that starts later', () => {
    // AAC priming in an MP4 edit list, Opus pre-skip in WebM: before 0, never played.
    const primed = extentOf([0, 1], ['1,-0.021333,-0.021333,0.021333', '0,0.000000,0.000000,1.0']);
    expect(primed.lengthMs()).toBe(1000);
    // Cut from a broadcast: its clock starts at 600 s; the tools count from its first packet.
    const cut = extentOf([0], ['0,600.000000,600.000000,0.040000', '0,629.960000,629.960000,0.04']);
    expect(cut.lengthMs()).toBe(30_000);
  });

  it('is 0 when no packet of the chosen streams was read', () => {
    expect(extentOf([0, 1], []).lengthMs()).toBe(0);
    expect(extentOf([3], ['0,0.000000,0.000000,1.000000']).lengthMs()).toBe(0);
  });
});
