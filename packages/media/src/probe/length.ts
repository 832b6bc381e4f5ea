/**
 * A file's real length, read from its packets. The duration a container's header states (MP4's
 * mvhd, tkhd and mdhd, Matroska's Segment Info) is only a claim that an edited file can shrink;
 * the packets' own timestamps are what every decoder plays, so prices, plan limits and the work
 * done on a file follow them. Pure: fed ffprobe's packet lines by the caller.
 */

/** What ffprobe is asked for, one CSV line per packet, in this order. */
export const PACKET_FIELDS = 'packet=stream_index,pts_time,dts_time,duration_time';

/**
 * Where the chosen streams' packets begin and end. Fed the lines of
 * `ffprobe -show_entries ${PACKET_FIELDS} -of csv=p=0`, one at a time (a long video has hundreds
 * of thousands): lines of other streams, and anything that is not a packet line, are passed over.
 */
export class PacketExtent {
  private readonly streams: ReadonlySet<number>;
  private firstMs = Number.POSITIVE_INFINITY;
  private lastMs = Number.NEGATIVE_INFINITY;
  /** Packets of the chosen streams read so far. */
  packets = 0;

  constructor(streams: Iterable<number>) {
    this.streams = new Set(streams);
  }

  add(line: string): void {
    // Side data may follow as extra fields: only the first four are ours.
    const [index, pts, dts, duration] = line.split(',');
    if (!index || !/^\d+$/.test(index) || !this.streams.has(Number(index))) return;
    // A packet without a presentation time (some B-frames in raw streams) has its decode time.
    const at = seconds(pts) ?? seconds(dts);
    if (at === undefined) return;
    this.packets++;
    this.firstMs = Math.min(this.firstMs, at * 1000);
    this.lastMs = Math.max(this.lastMs, (at + Math.max(0, seconds(duration) ?? 0)) * 1000);
  }

  /**
   * From the start to where the last packet ends, in whole ms; 0 when no packet was read. A
   * negative start (the encoder delay an MP4 edit list hides, Opus pre-skip) is not played, so
   * the length counts from 0 then; a later start (a recording cut from a broadcast) counts from
   * that start, as the tools that cut and extract the file do.
   */
  lengthMs(): number {
    if (this.packets === 0) return 0;
    return Math.max(0, Math.round(this.lastMs - Math.max(0, this.firstMs)));
  }
}

function seconds(field: string | undefined): number | undefined {
  if (field === undefined || field === '' || field === 'N/A') return undefined;
  const value = Number(field);
  return Number.isFinite(value) ? value : undefined;
}
