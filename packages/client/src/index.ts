import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

/** The typed client: every path, parameter, body and reply of openapi.json. */
export type MomentsClient = Client<paths>;

export interface MomentsClientOptions {
  /** The server's address, such as `http://127.0.0.1:8080` (no trailing `/api`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` on every call: a session or API token. */
  token?: string;
  /** Another fetch (a test's, or one that never leaves the process). */
  fetch?: ClientOptions['fetch'];
  headers?: Record<string, string>;
}

/** A client of the Moments API, typed from the committed OpenAPI document. */
export function createMomentsClient(options: MomentsClientOptions): MomentsClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: {
      ...options.headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

/** A refusal of the API: its HTTP status and the envelope's stable code and message. */
export class MomentsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'MomentsApiError';
  }
}

interface Envelope<T> {
  data: T;
}

/**
 * The `data` of a successful reply, or a MomentsApiError with the envelope's code: one call
 * reads as `const task = await unwrap(client.GET('/api/highlight_moment/task', { params }))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: Envelope<T>; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data.data;
  const envelope = (error ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
  throw new MomentsApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : `HTTP_${response.status}`,
    typeof envelope.message === 'string' ? envelope.message : response.statusText,
    envelope.details,
  );
}
