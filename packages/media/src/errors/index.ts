/**
 * Stable error codes the media layer reports. Where @moments/contract's ERROR_CODES has the same
 * name, it means the same thing; the server maps the rest. A code never changes meaning once shipped.
 */
export type MediaErrorCode =
  // uploads (spec §5: mp4, mov, webm only)
  | 'UNSUPPORTED_EXTENSION'
  | 'EMPTY_FILE'
  | 'NOT_A_VIDEO'
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
