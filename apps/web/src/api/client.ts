import type { ApiEnvelope } from '@moments/contract';
import {
  ERROR_CODES,
  IDEMPOTENCY_KEY_HEADER,
  SUCCESS_CODE,
  SUPPRESS_ERROR_HEADER,
} from '@moments/contract';
import { apiErrorText } from '../messages/domain';

/**
 * The one way the web app talks to the server: unwraps the `{ code, message, data }` envelope,
 * turns every failure into an ApiError, and hands failures to the global error handler
 * unless the request carries SUPPRESS_ERROR_HEADER.
 */

export class ApiError extends Error {
  readonly code: string;
  /** HTTP status; 0 when the request never reached the server. */
  readonly status: number;
  readonly suppressed: boolean;
  /** The request path, e.g. `/api/user/info`. */
  readonly path: string;
  /** Seconds the server asked to wait (its Retry-After header), or null when it named none. */
  readonly retryAfterSeconds: number | null;

  constructor(
    code: string,
    message: string,
    status: number,
    suppressed = false,
    path = '',
    retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.suppressed = suppressed;
    this.path = path;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Adds SUPPRESS_ERROR_HEADER: the caller shows its own message. */
  suppressErrorDialog?: boolean;
  signal?: AbortSignal;
  /** The request may outlive the page (sent while it unloads); its body must stay small. */
  keepalive?: boolean;
  /**
   * The call starts paid work: it carries an Idempotency-Key, one per user intent. The retries
   * of one call (after a network failure) and an identical call sent while it is still
   * unanswered (a double click) carry the same key, so the server does the work and charges once.
   */
  idempotent?: boolean;
}

/** What the global handler decides about a request that could not reach the server. */
export type NetworkFailureDecision = 'retry' | 'give-up';

export interface ApiErrorHandler {
  /** Called for server-side and client errors that are not suppressed. */
  onError(error: ApiError): void;
  /**
   * Called when the network failed; the request is retried when this resolves to 'retry'.
   * `readOnly`: a GET, safe to send again without asking (it changes nothing on the server).
   */
  onNetworkFailure(
    error: ApiError,
    request: { readOnly: boolean },
  ): Promise<NetworkFailureDecision>;
}

let errorHandler: ApiErrorHandler | null = null;

/** Installs the global handler (the error dialogs); returns a function that removes it. */
export function setApiErrorHandler(handler: ApiErrorHandler | null): () => void {
  errorHandler = handler;
  return () => {
    if (errorHandler === handler) errorHandler = null;
  };
}

function buildApiUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers ?? {}).some((key) => key.toLowerCase() === wanted);
}

async function sendOnce<T>(path: string, options: ApiRequestOptions, suppressed: boolean) {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.suppressErrorDialog) headers[SUPPRESS_ERROR_HEADER] = '1';
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
      ...(options.keepalive && { keepalive: true }),
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(
      ERROR_CODES.NETWORK_DISCONNECTED,
      apiErrorText(ERROR_CODES.NETWORK_DISCONNECTED, ''),
      0,
      suppressed,
      path,
    );
  }

  let envelope: Partial<ApiEnvelope<T>> | null = null;
  try {
    envelope = (await response.json()) as Partial<ApiEnvelope<T>>;
  } catch {
    // Not JSON (a proxy error page): handled as a failed request below.
    envelope = null;
  }
  if (response.ok && envelope && envelope.code === SUCCESS_CODE) return envelope.data as T;

  const code =
    envelope && typeof envelope.code === 'string'
      ? envelope.code
      : response.status >= 500 || response.ok
        ? ERROR_CODES.INTERNAL
        : ERROR_CODES.BAD_REQUEST;
  const message =
    envelope && typeof envelope.message === 'string' && envelope.message
      ? envelope.message
      : `The server answered ${response.status} ${response.statusText}`.trim();
  // Codes with a fixed text read from the catalogue; the rest show the server's own words.
  const retryAfter = response.headers.get('retry-after');
  throw new ApiError(
    code,
    apiErrorText(code, message),
    response.status,
    suppressed,
    path,
    retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null,
  );
}

/**
 * A random UUID. crypto.randomUUID exists only on secure pages (https, localhost), and a
 * self-hosted server is often opened over plain http on a LAN address; getRandomValues works there.
 */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The keys of paid calls still unanswered, by what they ask (method, address and body). */
const keysInFlight = new Map<string, { key: string; holders: number }>();

/** A key for this intent: the key of an identical call still unanswered, or a new one. */
function takeIdempotencyKey(
  path: string,
  options: ApiRequestOptions,
): { key: string; release(): void } {
  const intent = JSON.stringify([
    options.method ?? 'POST',
    buildApiUrl(path, options.query),
    options.body instanceof FormData ? randomKey() : (options.body ?? null),
  ]);
  const held = keysInFlight.get(intent) ?? { key: randomKey(), holders: 0 };
  held.holders++;
  keysInFlight.set(intent, held);
  return {
    key: held.key,
    release() {
      held.holders--;
      if (held.holders === 0 && keysInFlight.get(intent) === held) keysInFlight.delete(intent);
    },
  };
}

/** Sends a request and resolves with the envelope's `data`; rejects with an ApiError. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  if (!options.idempotent) return sendWithRetries<T>(path, options);
  const intent = takeIdempotencyKey(path, options);
  try {
    return await sendWithRetries<T>(path, {
      ...options,
      headers: { ...options.headers, [IDEMPOTENCY_KEY_HEADER]: intent.key },
    });
  } finally {
    intent.release();
  }
}

async function sendWithRetries<T>(path: string, options: ApiRequestOptions): Promise<T> {
  const suppressed =
    options.suppressErrorDialog === true || hasHeader(options.headers, SUPPRESS_ERROR_HEADER);
  for (;;) {
    try {
      return await sendOnce<T>(path, options, suppressed);
    } catch (error) {
      if (!isApiError(error) || suppressed || !errorHandler) throw error;
      if (error.code === ERROR_CODES.NETWORK_DISCONNECTED) {
        // The 'Network Disconnected' dialog with Retry; the request stays pending until decided.
        const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
        const decision = await errorHandler.onNetworkFailure(error, {
          readOnly: method === 'GET',
        });
        if (decision === 'retry') continue;
        throw error;
      }
      errorHandler.onError(error);
      throw error;
    }
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
