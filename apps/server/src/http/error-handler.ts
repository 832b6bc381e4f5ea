import { ERROR_CODES, ERROR_STATUS, isErrorCode, type ErrorCode } from '@moments/contract';
import { formatWait } from '@moments/domain/format';
import { VideoLinkError } from '@moments/domain/links';
import { MediaError, asDiskFull } from '@moments/media/errors';
import { LinkError } from '@moments/net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from 'fastify-type-provider-zod';
import { isDatabaseDiskFull, isDatabaseUnavailable } from '../db/errors.js';
import { answerMethodNotAllowed, type ApiContract } from './contract.js';
import type { App } from './types.js';
import { AppError } from './errors.js';

/** One error reply: the status, the envelope's code and message, and any headers it needs. */
export interface ErrorReply {
  status: number;
  code: string;
  message: string;
  details?: unknown;
  headers?: Record<string, string>;
}

/** Fastify's and its plugins' own 4xx errors, by status, as our codes. */
const FRAMEWORK_CODES: Record<number, keyof typeof ERROR_CODES> = {
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};
const FRAMEWORK_MESSAGES: Partial<Record<keyof typeof ERROR_CODES, string>> = {
  PAYLOAD_TOO_LARGE: 'The request is too large',
  URI_TOO_LONG: 'The address of this request is too long',
  RATE_LIMITED: 'Too many attempts, please try again later',
  HEADERS_TOO_LARGE: 'The headers of this request are too large',
};

/**
 * The refusal of a rate-limited route (@fastify/rate-limit's errorResponseBuilder): the wait in
 * words is the one its Retry-After header gives, rounded up as the plugin rounds it.
 */
export function rateLimitRefusal(_request: FastifyRequest, context: { ttl: number }): AppError {
  const seconds = Math.ceil(context.ttl / 1000);
  return new AppError(
    ERROR_CODES.RATE_LIMITED,
    ERROR_STATUS.RATE_LIMITED,
    `Too many attempts. Try again in ${formatWait(seconds)}.`,
  );
}

/** A reply for one of the catalogue's codes, with the status the catalogue gives it. */
function catalogued(code: ErrorCode, message: string, extra: Partial<ErrorReply> = {}): ErrorReply {
  return { status: ERROR_STATUS[code], code, message, ...extra };
}

/** What a failure means for the client: every failure becomes an envelope with a 4xx/5xx status. */
function errorReplyOf(error: FastifyError | AppError, request: FastifyRequest): ErrorReply {
  const failure: unknown = error;
  // The files' disk or the database's: either way nothing of the request was kept.
  if (asDiskFull(failure) || isDatabaseDiskFull(failure)) {
    request.log.error({ err: failure }, 'disk full');
    return catalogued(
      ERROR_CODES.DISK_FULL,
      'The server ran out of disk space, so nothing was kept. Try again once space has been freed.',
    );
  }
  if (failure instanceof MediaError || failure instanceof LinkError) {
    // Problems with what the user gave us are 4xx (ERROR_STATUS); failures of our tools are 5xx.
    const status = isErrorCode(failure.code) ? ERROR_STATUS[failure.code] : 502;
    if (status >= 500) {
      request.log.error({ err: failure, details: failure.details }, 'media failure');
    }
    return { status, code: failure.code, message: failure.message };
  }
  if (failure instanceof VideoLinkError) {
    return catalogued(ERROR_CODES.INVALID_URL, failure.message);
  }
  if (error instanceof AppError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      details: error.details,
      ...(error.headers && { headers: error.headers }),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) return validationReply(error);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return frameworkReply(status, error.message);
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return catalogued(
      ERROR_CODES.DATABASE_UNAVAILABLE,
      'The database cannot be reached right now. Nothing was changed; try again in a moment.',
      { headers: { 'retry-after': '5' } },
    );
  }
  request.log.error({ err: error }, 'request failed');
  return catalogued(ERROR_CODES.INTERNAL, 'Something went wrong on our side');
}

function validationReply(error: {
  validation: ZodFastifySchemaValidationError[];
  validationContext?: string | undefined;
}): ErrorReply {
  const details = error.validation.map((issue) => ({
    path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
    message: issue.message,
  }));
  const first = details[0];
  // An option the export does not know is named, with a code of its own: a typo is never ignored.
  const unknownOption = error.validation.find(
    (issue) => issue.keyword === 'unrecognized_keys' && /(^|\/)options$/.test(issue.instancePath),
  );
  if (unknownOption) {
    const keys = (unknownOption.params as { keys?: string[] }).keys ?? [];
    return {
      status: ERROR_STATUS.UNKNOWN_OPTION,
      code: ERROR_CODES.UNKNOWN_OPTION,
      message: `Unknown export option${keys.length > 1 ? 's' : ''}: ${keys.map((key) => `"${key}"`).join(', ')}.`,
      details,
    };
  }
  return {
    status: ERROR_STATUS.VALIDATION_FAILED,
    code: ERROR_CODES.VALIDATION_FAILED,
    message: first
      ? `Invalid ${error.validationContext ?? 'input'}: ${first.path || ''} ${first.message}`
          .replace(/\s+/g, ' ')
          .trim()
      : 'Invalid input',
    details,
  };
}

/** A 4xx of Fastify or a plugin (bad JSON, body too large, unknown content type, rate limit). */
export function frameworkReply(status: number, message: string): ErrorReply {
  const code = FRAMEWORK_CODES[status] ?? 'BAD_REQUEST';
  return {
    status: ERROR_STATUS[code],
    code: ERROR_CODES[code],
    message: FRAMEWORK_MESSAGES[code] ?? message,
  };
}

/**
 * Sends an error envelope. A code the route's contract does not declare is logged; under tests
 * (strict) it becomes a 500 whose message says what to declare, so the document never lags.
 */
function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  contract: ApiContract,
  failure: ErrorReply,
) {
  let sent = failure;
  const undeclared = contract.undeclared(request, failure.status, failure.code);
  if (undeclared) {
    request.log.error({ status: failure.status, code: failure.code }, undeclared);
    if (contract.strict) {
      sent = { status: ERROR_STATUS.INTERNAL, code: ERROR_CODES.INTERNAL, message: undeclared };
    }
  }
  if (sent.headers) reply.headers(sent.headers);
  return reply.status(sent.status).send({
    code: sent.code,
    message: sent.message,
    data: null,
    ...(sent.details === undefined ? {} : { details: sent.details }),
  });
}

/** Turns every failure into the `{ code, message, data: null }` envelope with a 4xx/5xx status. */
export function installErrorHandler(app: App, contract: ApiContract) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (request.is404 && answerMethodNotAllowed(contract, request, reply)) return reply;
    return sendError(request, reply, contract, errorReplyOf(error, request));
  });
}
