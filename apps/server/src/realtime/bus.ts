// Fan-out of per-user messages between API instances (design.md: in-process by default,
// Postgres LISTEN/NOTIFY or Redis pub/sub when several instances serve the same users).
import { fallbackLogger, type RealtimeLogger } from './logger.js';

/** The JSON body of a STOMP MESSAGE on /user/queue/msg (a notification or a sync message). */
export interface UserMessage {
  type: string;
  data: unknown;
  id?: string;
}

export interface PublishOptions {
  /**
   * STOMP session (the CONNECTED frame's `session` header) that must not receive this message:
   * A view on one client is synced to the user's *other* clients.
   */
  exceptSessionId?: string;
}

export type UserMessageHandler = (
  userId: string,
  message: UserMessage,
  options: PublishOptions,
) => void;

export interface RealtimeBus {
  /** Resolves once the message is handed to the transport (not when clients got it). */
  publish(userId: string, message: UserMessage, options?: PublishOptions): Promise<void>;
  /** Resolves once the handler is receiving; the returned function stops it. */
  subscribe(handler: UserMessageHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * A bus message that is not for clients: every API process closes the user's sockets of the
 * given session (all of the user's sockets when no session is named), e.g. on logout.
 */
export const DISCONNECT_MESSAGE_TYPE = 'moments.realtime.disconnect';

export function disconnectMessage(sessionKey?: string): UserMessage {
  return { type: DISCONNECT_MESSAGE_TYPE, data: sessionKey ? { sessionKey } : {} };
}

/** What travels between instances. `v` lets a rolling deploy refuse envelopes it cannot read. */
export interface BusEnvelope {
  v: 1;
  userId: string;
  message: UserMessage;
  exceptSessionId?: string;
}

function toEnvelope(
  userId: string,
  message: UserMessage,
  options: PublishOptions = {},
): BusEnvelope {
  const envelope: BusEnvelope = { v: 1, userId, message };
  if (options.exceptSessionId) envelope.exceptSessionId = options.exceptSessionId;
  return envelope;
}

/** Parses an envelope from another instance; null when it is not one we understand. */
function parseEnvelope(text: string): BusEnvelope | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: not one of our messages.
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const envelope = value as Partial<BusEnvelope>;
  if (envelope.v !== 1 || typeof envelope.userId !== 'string') return null;
  const message = envelope.message as Partial<UserMessage> | undefined;
  if (typeof message !== 'object' || message === null || typeof message.type !== 'string') {
    return null;
  }
  return envelope as BusEnvelope;
}

/** Delivers to every handler, isolating one handler's failure from the others. */
class HandlerSet {
  private readonly handlers = new Set<UserMessageHandler>();

  get size(): number {
    return this.handlers.size;
  }

  add(handler: UserMessageHandler): void {
    this.handlers.add(handler);
  }

  delete(handler: UserMessageHandler): void {
    this.handlers.delete(handler);
  }

  clear(): void {
    this.handlers.clear();
  }

  dispatch(envelope: BusEnvelope, onError: (error: unknown) => void): void {
    const options: PublishOptions = envelope.exceptSessionId
      ? { exceptSessionId: envelope.exceptSessionId }
      : {};
    for (const handler of this.handlers) {
      try {
        handler(envelope.userId, envelope.message, options);
      } catch (error) {
        onError(error);
      }
    }
  }
}

/**
 * What every bus shares: it refuses to publish once closed, keeps its subscribers in a HandlerSet,
 * starts its transport's receiving side on a subscription, and hands what arrives to the
 * subscribers as an envelope. A transport gives `send` (an envelope's JSON), `listen` and
 * `shutdown`.
 */
export abstract class EnvelopeBus implements RealtimeBus {
  protected readonly handlers = new HandlerSet();
  protected closed = false;

  constructor(
    /** Named in the warning about an unreadable message. */
    protected readonly channel: string,
    protected readonly logger: RealtimeLogger,
  ) {}

  async publish(userId: string, message: UserMessage, options?: PublishOptions): Promise<void> {
    if (this.closed) throw new Error('Realtime bus is closed');
    await this.send(JSON.stringify(toEnvelope(userId, message, options)));
  }

  async subscribe(handler: UserMessageHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('Realtime bus is closed');
    this.handlers.add(handler);
    try {
      await this.listen();
    } catch (error) {
      this.handlers.delete(handler);
      throw error;
    }
    return async () => {
      this.handlers.delete(handler);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await this.shutdown();
  }

  /** One envelope's text as it arrived: to every subscriber, or a warning naming `what` it was. */
  protected receive(text: string, what = 'message'): void {
    const envelope = parseEnvelope(text);
    if (!envelope) {
      this.logger.warn({ channel: this.channel }, `Ignored an unreadable realtime ${what}`);
      return;
    }
    this.dispatch(envelope);
  }

  protected dispatch(envelope: BusEnvelope): void {
    this.handlers.dispatch(envelope, (error) => {
      this.logger.error({ err: error }, 'Realtime handler failed');
    });
  }

  protected abstract send(payload: string): Promise<void>;
  protected abstract listen(): Promise<void>;
  protected abstract shutdown(): Promise<void>;
}

/** Single-process bus: the default when one server serves every user. */
export class InProcessBus extends EnvelopeBus {
  constructor(logger: RealtimeLogger = fallbackLogger) {
    super('in-process', logger);
  }

  protected async send(payload: string): Promise<void> {
    // A JSON round trip gives subscribers the same value the networked buses would.
    const envelope = parseEnvelope(payload);
    if (!envelope) throw new Error('Realtime message must be JSON with a string "type"');
    this.dispatch(envelope);
  }

  protected async listen(): Promise<void> {}

  protected async shutdown(): Promise<void> {}
}
