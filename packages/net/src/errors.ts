/**
 * Why a link was refused or could not be fetched. The codes are the contract's own
 * (`ERROR_CODES`), so the server answers them as they are; a code never changes meaning.
 */
export type LinkErrorCode =
  | 'INVALID_URL'
  | 'PRIVATE_ADDRESS'
  | 'LINK_NOT_FOUND'
  | 'LINK_NOT_MEDIA'
  | 'LINK_UNREACHABLE'
  | 'FILE_TOO_LARGE'
  | 'TIMEOUT'
  | 'ABORTED';

export class LinkError extends Error {
  override name = 'LinkError';
  /** Stable machine-readable code, e.g. `PRIVATE_ADDRESS`. */
  readonly code: LinkErrorCode;
  /** Extra facts for logs (the status answered, the address refused); never shown as is. */
  readonly details?: Record<string, unknown>;

  constructor(
    code: LinkErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.details) this.details = options.details;
  }
}

export function isLinkError(error: unknown, code?: LinkErrorCode): error is LinkError {
  return error instanceof LinkError && (code === undefined || error.code === code);
}
