import { ERROR_CODES, type ErrorCode } from '@moments/contract';

/** An error a client can act on: a stable code, an HTTP status and a readable message. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    /** Headers the reply carries, e.g. Retry-After with a rate limit. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') =>
  new AppError(ERROR_CODES.NOT_FOUND, 404, `${what} not found`);
export const unauthorized = () =>
  new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
export const badRequest = (message: string, details?: unknown) =>
  new AppError(ERROR_CODES.BAD_REQUEST, 400, message, details);
