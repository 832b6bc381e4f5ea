import { runFfmpeg, runFfprobe } from '../ffmpeg/index.js';

/** Why a logo picture was refused: too many pixels on a side, or not decodable as its kind. */
export class LogoImageError extends Error {
  override name = 'LogoImageError';
  constructor(
    readonly reason: 'too_large' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

export interface DecodeLogoOptions {
  /** What its first bytes say it is; ffprobe must agree. */
  kind: 'png' | 'jpeg';
  /** The largest side taken, in pixels. */
  maxSide: number;
  /** Wider pictures are scaled down to this width. */
  storedWidth: number;
}

/**
 * A logo decoded in full by ffmpeg and written as an RGBA PNG (a file that only starts like an
 * image fails here), refused when either side is above `maxSide`; the stored size is returned.
 */
export async function decodeLogoImage(
  input: string,
  output: string,
  options: DecodeLogoOptions,
): Promise<{ width: number; height: number }> {
  const size = await imageSize(input, options.kind);
  if (size.width > options.maxSide || size.height > options.maxSide) {
    throw new LogoImageError('too_large', `The logo is larger than ${options.maxSide} pixels.`);
  }
  try {
    await runFfmpeg(
      [
        ...['-v', 'error', '-xerror', '-i', `file:${input}`, '-frames:v', '1'],
        ...['-vf', `scale='min(${options.storedWidth},iw)':-1:flags=lanczos,format=rgba`],
        ...['-f', 'image2', '-c:v', 'png', `file:${output}`],
      ],
      { timeoutMs: 30_000, threads: 1 },
    );
  } catch {
    throw new LogoImageError('unreadable', 'The logo image is damaged and cannot be read.');
  }
  return imageSize(output, 'png');
}

/** The picture's size as ffprobe reads it, checking it is the codec its first bytes said. */
async function imageSize(file: string, kind: 'png' | 'jpeg') {
  let probed: { streams?: { codec_name?: string; width?: number; height?: number }[] };
  try {
    probed = JSON.parse(
      await runFfprobe(
        [
          ...['-v', 'error', '-select_streams', 'v:0'],
          ...['-show_entries', 'stream=codec_name,width,height', '-of', 'json', `file:${file}`],
        ],
        { timeoutMs: 30_000 },
      ),
    );
  } catch {
    throw new LogoImageError('unreadable', 'The logo image is damaged and cannot be read.');
  }
  const stream = probed.streams?.[0];
  const codec = kind === 'png' ? 'png' : 'mjpeg';
  if (!stream || stream.codec_name !== codec || !stream.width || !stream.height) {
    throw new LogoImageError('unreadable', 'The logo image is damaged and cannot be read.');
  }
  return { width: stream.width, height: stream.height };
}
