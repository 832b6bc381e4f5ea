import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, ERROR_STATUS } from '@moments/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { frameworkReply, type ErrorReply } from './error-handler.js';

/**
 * Errors that happen before a request reaches a route, answered in the same `{code, message,
 * data}` envelope as everything else instead of Fastify's and Node's own bodies.
 */

/** A request line this long is an over-long address (414), not over-long headers (431). */
const LONG_REQUEST_LINE = 8 * 1024;

/** Fastify's router errors (`frameworkErrors`): a malformed or over-long path. */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const failure =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? frameworkReply(414, error.message)
      : frameworkReply(400, 'This address is not valid (a malformed %-escape?)');
  return reply.status(failure.status).send(envelope(failure));
}

/**
 * Node's HTTP parser errors (`clientErrorHandler`): headers over `maxHeaderSize` (431), an
 * address as long (414), a request that is not HTTP (400), one too slow to arrive (408).
 */
export function answerClientError(error: ParserError, socket: Duplex) {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const failure = clientFailure(error);
  if (socket.writable) {
    const body = JSON.stringify(envelope(failure));
    socket.write(
      `HTTP/1.1 ${failure.status} ${http.STATUS_CODES[failure.status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Node's parser error: its `rawPacket` holds the bytes it choked on. */
type ParserError = Error & { code?: string; rawPacket?: unknown };

function clientFailure(error: ParserError): ErrorReply {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
    const lineEnd = packet.indexOf('\r\n');
    const startsRequest = /^[A-Z]+ \//.test(packet.subarray(0, 16).toString('latin1'));
    const longLine = startsRequest && (lineEnd === -1 || lineEnd > LONG_REQUEST_LINE);
    return frameworkReply(longLine ? 414 : 431, '');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: ERROR_CODES.BAD_REQUEST,
      message: 'The request took too long to arrive',
    };
  }
  return {
    status: ERROR_STATUS.BAD_REQUEST,
    code: ERROR_CODES.BAD_REQUEST,
    message: 'This is not a valid HTTP request',
  };
}

const envelope = (failure: ErrorReply) => ({
  code: failure.code,
  message: failure.message,
  data: null,
});
