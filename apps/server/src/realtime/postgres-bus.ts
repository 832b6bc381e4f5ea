import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { EnvelopeBus } from './bus.js';
import { fallbackLogger, type RealtimeLogger } from './logger.js';

// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; keep a margin for the chunk envelope.
const NOTIFY_PAYLOAD_LIMIT_BYTES = 7_900;
// A UTF-16 unit costs at most 3 UTF-8 bytes, or 2 once JSON-escaped ('"' and '\\'), so a part of
// this many units stays under the limit once wrapped in its chunk envelope.
const CHUNK_UNITS = 2_500;
/** Larger messages are refused: the realtime channel carries notifications, not documents. */
const MAX_REALTIME_MESSAGE_BYTES = 1024 * 1024;
const CHUNK_ASSEMBLY_TIMEOUT_MS = 30_000;
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];

export class RealtimeMessageTooLargeError extends Error {
  constructor(bytes: number) {
    super(`Realtime message of ${bytes} bytes exceeds ${MAX_REALTIME_MESSAGE_BYTES} bytes`);
    this.name = 'RealtimeMessageTooLargeError';
  }
}

interface ChunkEnvelope {
  v: 1;
  chunk: { id: string; index: number; count: number; part: string };
}

function splitIntoParts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + CHUNK_UNITS, text.length);
    // Never cut a surrogate pair in half: each part must be valid UTF-16 on its own.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

export interface PostgresBusOptions {
  connectionString: string;
  /** NOTIFY channel; instances that should share messages use the same one. */
  channel?: string;
  logger?: RealtimeLogger;
}

/**
 * Fan-out over LISTEN/NOTIFY. Messages over NOTIFY's 8000-byte payload limit are split into
 * parts sent by one statement (one transaction, so they are delivered together or not at
 * all) and reassembled by the listeners; messages over 1 MiB are refused with
 * RealtimeMessageTooLargeError. Messages published while a listener is reconnecting are lost
 * for that instance (clients reload notification history on reconnect).
 */
export class PostgresBus extends EnvelopeBus {
  private readonly pool: pg.Pool;
  private readonly pendingChunks = new Map<
    string,
    { parts: (string | undefined)[]; received: number; startedAt: number }
  >();
  private listener: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;

  constructor(private readonly options: PostgresBusOptions) {
    super(options.channel ?? 'moments_realtime', options.logger ?? fallbackLogger);
    // LISTEN takes an identifier, not a parameter: accept only names that need no quoting care.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.channel)) {
      throw new Error(`Invalid realtime channel name "${this.channel}"`);
    }
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
    this.pool.on('error', (error) => {
      this.logger.warn({ err: error }, 'Realtime publisher connection failed');
    });
  }

  protected async send(payload: string): Promise<void> {
    const bytes = Buffer.byteLength(payload);
    if (bytes < NOTIFY_PAYLOAD_LIMIT_BYTES) {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
      return;
    }
    if (bytes > MAX_REALTIME_MESSAGE_BYTES) throw new RealtimeMessageTooLargeError(bytes);
    const id = randomUUID();
    const parts = splitIntoParts(payload);
    const chunks = parts.map((part, index) =>
      JSON.stringify({ v: 1, chunk: { id, index, count: parts.length, part } } as ChunkEnvelope),
    );
    await this.pool.query('SELECT pg_notify($1, chunk) FROM unnest($2::text[]) AS chunk', [
      this.channel,
      chunks,
    ]);
  }

  protected async shutdown(): Promise<void> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = null;
    await Promise.allSettled([listener?.end(), this.pool.end()]);
  }

  protected listen(): Promise<void> {
    this.listening ??= this.connectListener().catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    return this.listening;
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (notification) => {
      if (notification.channel === this.channel && notification.payload !== undefined) {
        this.notified(notification.payload);
      }
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'Realtime listener connection failed');
      this.dropListener(client);
    });
    client.on('end', () => this.dropListener(client));
    await client.connect();
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      // Best effort: the LISTEN error below is what the caller sees.
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.listener = client;
    this.reconnectAttempt = 0;
  }

  private dropListener(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.listening = null;
    // Best effort: this client already failed (its error was logged); a new one replaces it.
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer || this.handlers.size === 0) return;
    const delay =
      RECONNECT_DELAYS_MS[Math.min(this.reconnectAttempt, RECONNECT_DELAYS_MS.length - 1)] ??
      10_000;
    this.reconnectAttempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Realtime listener reconnect failed');
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  /** A notification: a whole envelope, or one part of a chunked one. */
  private notified(payload: string): void {
    const text = this.assemble(payload);
    if (text !== null) this.receive(text, 'notification');
  }

  /** Returns the full envelope text, or null while parts of a chunked message are missing. */
  private assemble(payload: string): string | null {
    if (!payload.startsWith('{"v":1,"chunk":')) return payload;
    let chunk: ChunkEnvelope['chunk'];
    try {
      chunk = (JSON.parse(payload) as ChunkEnvelope).chunk;
    } catch {
      // Not JSON: not one of our chunks.
      return null;
    }
    const now = Date.now();
    for (const [id, pending] of this.pendingChunks) {
      if (now - pending.startedAt > CHUNK_ASSEMBLY_TIMEOUT_MS) this.pendingChunks.delete(id);
    }
    const maxParts = Math.ceil(MAX_REALTIME_MESSAGE_BYTES / CHUNK_UNITS) + 1;
    const wellFormed =
      typeof chunk?.id === 'string' &&
      typeof chunk.part === 'string' &&
      Number.isInteger(chunk.count) &&
      Number.isInteger(chunk.index) &&
      chunk.count > 0 &&
      chunk.count <= maxParts &&
      chunk.index >= 0 &&
      chunk.index < chunk.count;
    if (!wellFormed) return null;
    let pending = this.pendingChunks.get(chunk.id);
    if (!pending) {
      pending = { parts: new Array(chunk.count), received: 0, startedAt: now };
      this.pendingChunks.set(chunk.id, pending);
    }
    if (pending.parts[chunk.index] === undefined) {
      pending.parts[chunk.index] = chunk.part;
      pending.received += 1;
    }
    if (pending.received < pending.parts.length) return null;
    this.pendingChunks.delete(chunk.id);
    return pending.parts.join('');
  }
}
