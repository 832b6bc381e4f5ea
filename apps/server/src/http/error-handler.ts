import { ERROR_CODES } from '@moments/contract';
import { VideoLinkError } from '@moments/domain/links';
import { MediaError, asDiskFull } from '@moments/media/errors';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { App } from './types.js';
import { AppError } from './errors.js';

const MEDIA_INPUT_CODES: ReadonlySet<string> = new Set([
  'UNSUPPORTED_EXTENSION',
  'EMPTY_FILE',
  'NOT_A_VIDEO',
  'CORRUPT_MEDIA',
  'NO_AUDIO',
  'INVALID_URL',
  'PRIVATE_ADDRESS',
  'LINK_NOT_FOUND',
  'LINK_NOT_MEDIA',
  'LINK_UNREACHABLE',
  'DOWNLOAD_FAILED',
]);

/** Turns every failure into the `{ code, message, data: null }` envelope with a 4xx/5xx status. */
export function installErrorHandler(app: App) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const failure: unknown = error;
    if (asDiskFull(failure)) {
      request.log.error({ err: failure }, 'disk full');
      return reply.status(507).send({
        code: ERROR_CODES.DISK_FULL,
        message:
          'The server ran out of disk space, so nothing was kept. Try again once space has been freed.',
        data: null,
      });
    }
    if (failure instanceof MediaError) {
      // Problems with what the user gave us are 4xx; failures of our tools are 5xx.
      const status = MEDIA_INPUT_CODES.has(failure.code)
        ? 400
        : failure.code === 'TIMEOUT'
          ? 504
          : 502;
      if (status >= 500)
        request.log.error({ err: failure, details: failure.details }, 'media failure');
      return reply
        .status(status)
        .send({ code: failure.code, message: failure.message, data: null });
    }
    if (failure instanceof VideoLinkError) {
      return reply
        .status(400)
        .send({ code: ERROR_CODES.INVALID_URL, message: failure.message, data: null });
    }
    if (error instanceof AppError) {
      return reply.status(error.status).send({
        code: error.code,
        message: error.message,
        data: null,
        ...(error.details === undefined ? {} : { details: error.details }),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message,
      }));
      const first = details[0];
      return reply.status(400).send({
        code: ERROR_CODES.VALIDATION_FAILED,
        message: first
          ? `Invalid ${error.validationContext ?? 'input'}: ${first.path || ''} ${first.message}`
              .replace(/\s+/g, ' ')
              .trim()
          : 'Invalid input',
        data: null,
        details,
      });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        code: ERROR_CODES.RATE_LIMITED,
        message: 'Too many attempts, please wait a minute and try again',
        data: null,
      });
    }
    if (status === 413) {
      return reply.status(413).send({
        code: ERROR_CODES.PAYLOAD_TOO_LARGE,
        message: 'The request is too large',
        data: null,
      });
    }
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ code: ERROR_CODES.BAD_REQUEST, message: error.message, data: null });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({
        code: ERROR_CODES.DATABASE_UNAVAILABLE,
        message:
          'The database cannot be reached right now. Nothing was changed; try again in a moment.',
        data: null,
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({
      code: ERROR_CODES.INTERNAL,
      message: 'Something went wrong on our side',
      data: null,
    });
  });
}
