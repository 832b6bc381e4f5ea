/**
 * Stable error codes the media layer reports. Where @moments/contract's ERROR_CODES has the same
 * name, it means the same thing; the server maps the rest. A code never changes meaning once shipped.
 */
export type MediaErrorCode =
  // uploads (mp4, mov, webm only)
  | 'UNSUPPORTED_EXTENSION'
  | 'EMPTY_FILE'
  | 'NOT_A_VIDEO'
  | 'VIDEO_FRAME_TOO_LARGE'
  | 'CORRUPT_MEDIA'
  | 'NO_AUDIO'
  // links
  | 'INVALID_URL'
  | 'PRIVATE_ADDRESS'
  | 'LINK_NOT_FOUND'
  | 'LINK_NOT_MEDIA'
  | 'LINK_UNREACHABLE'
  | 'DOWNLOAD_FAILED'
  // tools
  | 'TOOL_MISSING'
  | 'FFMPEG_FAILED'
  | 'FFPROBE_FAILED'
  | 'TIMEOUT'
  | 'ABORTED'
  // the machine
  | 'DISK_FULL'
  // any folder may add its own code without editing this union
  | (string & {});

export class MediaError extends Error {
  override name = 'MediaError';
  /** Stable machine-readable code, e.g. `UNSUPPORTED_EXTENSION`. */
  readonly code: MediaErrorCode;
  /** Extra facts for logs (exit code, stderr tail...); never shown to users as is. */
  readonly details?: Record<string, unknown>;

  constructor(
    code: MediaErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.details) this.details = options.details;
  }
}

export function isMediaError(error: unknown, code?: MediaErrorCode): error is MediaError {
  return error instanceof MediaError && (code === undefined || error.code === code);
}

/** What a user is told when the server's disk filled up under their work. */
export const DISK_FULL_MESSAGE =
  'The server ran out of disk space, so this stopped before it finished. Nothing was charged; try again once space has been freed.';

/** How tools say the disk is full in their error output (ffmpeg, yt-dlp, Python). */
export const isDiskFullText = (text: string) =>
  /No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i.test(text);

/**
 * A DISK_FULL MediaError when `error` says the disk is full: Node's ENOSPC/EDQUOT (also wrapped
 * in `cause`), or a tool's failure whose error output says so. Otherwise undefined.
 */
export function asDiskFull(error: unknown): MediaError | undefined {
  if (isMediaError(error, 'DISK_FULL')) return error;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, stderrTail, details, cause } = current as {
      code?: unknown;
      stderrTail?: unknown;
      details?: { stderrTail?: unknown; stderr?: unknown };
      cause?: unknown;
    };
    const texts = [stderrTail, details?.stderrTail, details?.stderr];
    if (
      code === 'ENOSPC' ||
      code === 'EDQUOT' ||
      texts.some((text) => typeof text === 'string' && isDiskFullText(text))
    ) {
      return new MediaError('DISK_FULL', DISK_FULL_MESSAGE, { cause: error });
    }
    current = cause;
  }
  return undefined;
}
