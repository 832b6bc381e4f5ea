import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  DISCONNECT_MESSAGE_TYPE,
  type PublishOptions,
  type RealtimeBus,
  type UserMessage,
} from './bus.js';
import {
  encodeFrame,
  HEARTBEAT_EOL,
  StompFrameDecoder,
  StompProtocolError,
  type StompFrame,
  type StompHeaders,
} from './frame.js';
import { fallbackLogger, type RealtimeLogger } from './logger.js';

/** The only destination a client may subscribe to. */
export const USER_QUEUE_DESTINATION = '/user/queue/msg';
const DEFAULT_STOMP_PATH = '/stomp-ws';
/** The subprotocol @stomp/stompjs asks for when it speaks STOMP 1.2. */
const STOMP_SUBPROTOCOL = 'v12.stomp';

export interface StompServerOptions {
  /** Default '/stomp-ws'. */
  path?: string;
  /**
   * Resolves the CONNECT frame's `token` header (a realtime ticket, or an API client's bearer
   * token) to a user; `sessionKey` names the session so its end can close the socket.
   */
  authenticate: (token: string) => Promise<{ userId: string; sessionKey?: string } | null>;
  bus: RealtimeBus;
  logger?: RealtimeLogger;
  /**
   * Heart-beats the server offers: it can send every `outgoingMs` and wants to hear from the
   * client every `incomingMs`; 0 disables that direction. Default 4000/4000.
   */
  heartbeat?: { outgoingMs: number; incomingMs: number };
  /** A client silent for longer than the negotiated interval times this is dropped. Default 2. */
  heartbeatGraceFactor?: number;
  /** Largest frame a client may send, in bytes. Default 64 KiB. */
  maxFrameBytes?: number;
  /** A socket that has not sent CONNECT after this long is closed. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Authenticated connections one user may hold on this server at once (tabs, devices); the next
   * CONNECT gets an ERROR frame. Default 20.
   */
  maxConnectionsPerUser?: number;
  /** Told when a user's first connection to this instance opens (true) and their last closes. */
  onPresence?: (userId: string, connected: boolean) => void;
}

export interface StompServerHandle {
  /** Resolves once bus messages reach this server's clients. */
  ready: Promise<void>;
  /** Number of open WebSocket connections (authenticated or not). */
  connectionCount(): number;
  /** Closes this user's connections on this instance (e.g. on logout: only logged-in users connect). */
  disconnectUser(userId: string): number;
  /** Whether this user has an authenticated connection to this instance. */
  isConnected(userId: string): boolean;
  /** Stops accepting connections, closes open ones and unsubscribes from the bus (which stays open). */
  close(): Promise<void>;
}

const MAX_SUBSCRIPTIONS_PER_CONNECTION = 8;
/** A client this far behind on reading is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function parseHeartbeatHeader(value: string | undefined): [number, number] {
  if (value === undefined) return [0, 0];
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value);
  if (!match) throw new StompProtocolError('Invalid heart-beat header', 'Expected "<cx>,<cy>"');
  return [Number(match[1]), Number(match[2])];
}

/** STOMP 1.2 §Heart-beating: a direction is on only when both sides agree; it runs at the slower. */
function negotiateInterval(willSend: number, wantsToReceive: number): number {
  return willSend === 0 || wantsToReceive === 0 ? 0 : Math.max(willSend, wantsToReceive);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function bearerToken(headers: StompHeaders): string | undefined {
  const raw = headers.token ?? headers.Authorization ?? headers.authorization;
  const token = raw?.replace(/^Bearer\s+/i, '').trim();
  return token ? token : undefined;
}

class StompConnection {
  readonly sessionId = randomUUID();
  userId: string | null = null;
  sessionKey: string | null = null;
  /** subscription id -> destination */
  readonly subscriptions = new Map<string, string>();
  private readonly decoder: StompFrameDecoder;
  private state: 'awaiting-connect' | 'connecting' | 'connected' | 'closing' = 'awaiting-connect';
  private queue: Promise<void> = Promise.resolve();
  private lastReceivedAt = Date.now();
  private messageCounter = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly server: StompServer,
  ) {
    this.decoder = new StompFrameDecoder(server.maxFrameBytes);
    const connectTimer = setTimeout(() => {
      if (this.state === 'awaiting-connect') this.fail('No CONNECT frame received in time');
    }, server.connectTimeoutMs);
    this.timers.push(connectTimer);
    socket.on('message', (data) => this.onData(toBuffer(data)));
    socket.on('close', () => this.dispose());
    socket.on('error', (error) => {
      server.logger.warn({ err: error, session: this.sessionId }, 'Realtime socket error');
    });
  }

  deliver(message: UserMessage): void {
    if (this.state !== 'connected') return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.fail('Client is not reading its messages');
      return;
    }
    const body = JSON.stringify(message);
    for (const [subscriptionId, destination] of this.subscriptions) {
      if (destination !== USER_QUEUE_DESTINATION) continue;
      this.messageCounter += 1;
      this.send(
        encodeFrame(
          'MESSAGE',
          {
            subscription: subscriptionId,
            'message-id': `${this.sessionId}-${this.messageCounter}`,
            destination,
            'content-type': 'application/json',
          },
          body,
        ),
      );
    }
  }

  close(reason: string): void {
    if (this.state === 'closing') return;
    this.state = 'closing';
    this.server.logger.info({ session: this.sessionId, reason }, 'Realtime connection closed');
    this.socket.close(1000, reason.slice(0, 120));
  }

  private send(data: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(data);
  }

  private onData(chunk: Buffer): void {
    this.lastReceivedAt = Date.now();
    if (this.state === 'closing') return;
    let frames: StompFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.failWith(error);
      return;
    }
    for (const frame of frames) {
      // Frames are handled one after another: CONNECT authenticates asynchronously, and a
      // SUBSCRIBE sent right behind it must see its outcome.
      this.queue = this.queue
        .then(() => this.handleFrame(frame))
        .catch((error: unknown) => {
          this.failWith(error, frame);
        });
    }
  }

  private async handleFrame(frame: StompFrame): Promise<void> {
    if (this.state === 'closing') return;
    if (this.state !== 'connected' && frame.command !== 'CONNECT' && frame.command !== 'STOMP') {
      throw new StompProtocolError('Not connected', `Expected CONNECT, got ${frame.command}`);
    }
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP':
        await this.handleConnect(frame);
        return;
      case 'SUBSCRIBE':
        this.handleSubscribe(frame);
        break;
      case 'UNSUBSCRIBE': {
        const id = frame.headers.id;
        if (!id) throw new StompProtocolError('Missing header', 'UNSUBSCRIBE needs an id header');
        this.subscriptions.delete(id);
        break;
      }
      case 'ACK':
      case 'NACK':
        // Subscriptions are ack:auto only; an acknowledgement changes nothing.
        break;
      case 'DISCONNECT':
        this.sendReceipt(frame);
        this.close('Client disconnected');
        return;
      case 'SEND':
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        throw new StompProtocolError('Unsupported frame', `${frame.command} is not accepted here`);
      default:
        throw new StompProtocolError('Unknown command', `${frame.command} is not a STOMP command`);
    }
    this.sendReceipt(frame);
  }

  private async handleConnect(frame: StompFrame): Promise<void> {
    if (this.state !== 'awaiting-connect') {
      throw new StompProtocolError('Already connected', 'CONNECT may be sent only once');
    }
    this.state = 'connecting';
    const acceptVersion = frame.headers['accept-version'] ?? '1.0';
    if (!acceptVersion.split(',').some((version) => version.trim() === '1.2')) {
      throw new StompProtocolError('Unsupported protocol version', 'Supported versions are 1.2');
    }
    const [clientSends, clientWants] = parseHeartbeatHeader(frame.headers['heart-beat']);

    const token = bearerToken(frame.headers);
    const identity = token ? await this.server.authenticate(token) : null;
    if (this.state !== 'connecting') return; // socket closed while authenticating
    if (!identity) {
      throw new StompProtocolError(
        'Unauthorized',
        token ? 'The token is invalid or expired' : 'CONNECT needs a token header',
      );
    }
    // Each connection holds a socket, timers and a share of every delivery: one account must
    // not be able to hold thousands. Checked and registered with no await in between, so
    // CONNECTs that arrive together cannot all pass.
    const open = this.server.connectionsByUser.get(identity.userId)?.size ?? 0;
    const max = this.server.maxConnectionsPerUser;
    if (open >= max) {
      this.server.logger.warn(
        { session: this.sessionId, userId: identity.userId, open },
        'Realtime connection refused: too many for one user',
      );
      throw new StompProtocolError(
        'Too many connections',
        `One account may hold at most ${max} realtime connections at once; close another tab or window of Moments and this one reconnects.`,
      );
    }

    const { outgoingMs, incomingMs } = this.server.heartbeat;
    const sendEveryMs = negotiateInterval(outgoingMs, clientWants);
    const expectEveryMs = negotiateInterval(clientSends, incomingMs);
    this.userId = identity.userId;
    this.sessionKey = identity.sessionKey ?? null;
    this.state = 'connected';
    this.server.register(this);
    this.send(
      encodeFrame('CONNECTED', {
        version: '1.2',
        'heart-beat': `${outgoingMs},${incomingMs}`,
        session: this.sessionId,
        server: 'moments',
      }),
    );
    if (sendEveryMs > 0) {
      this.timers.push(setInterval(() => this.send(HEARTBEAT_EOL), sendEveryMs));
    }
    if (expectEveryMs > 0) {
      const silenceLimitMs = expectEveryMs * this.server.heartbeatGraceFactor;
      const check = setInterval(() => {
        if (Date.now() - this.lastReceivedAt > silenceLimitMs) {
          this.server.logger.info(
            { session: this.sessionId },
            'Realtime client missed heart-beats',
          );
          this.state = 'closing';
          this.socket.terminate();
        }
      }, expectEveryMs);
      this.timers.push(check);
    }
  }

  private handleSubscribe(frame: StompFrame): void {
    const { id, destination } = frame.headers;
    if (!id || !destination) {
      throw new StompProtocolError('Missing header', 'SUBSCRIBE needs id and destination headers');
    }
    if (destination !== USER_QUEUE_DESTINATION) {
      throw new StompProtocolError(
        'Forbidden destination',
        `Only ${USER_QUEUE_DESTINATION} may be subscribed to`,
      );
    }
    if (this.subscriptions.has(id)) {
      throw new StompProtocolError(
        'Duplicate subscription',
        `Subscription id ${id} is already in use`,
      );
    }
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new StompProtocolError(
        'Too many subscriptions',
        `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection`,
      );
    }
    this.subscriptions.set(id, destination);
  }

  private sendReceipt(frame: StompFrame): void {
    const receipt = frame.headers.receipt;
    if (receipt !== undefined) this.send(encodeFrame('RECEIPT', { 'receipt-id': receipt }));
  }

  private failWith(error: unknown, frame?: StompFrame): void {
    if (error instanceof StompProtocolError) {
      this.fail(error.message, error.detail, frame?.headers.receipt);
    } else {
      this.server.logger.error(
        { err: error, session: this.sessionId },
        'Realtime frame handling failed',
      );
      this.fail('Internal error', undefined, frame?.headers.receipt);
    }
  }

  /** STOMP 1.2: the server sends ERROR and then closes the connection. */
  private fail(message: string, detail?: string, receiptId?: string): void {
    if (this.state === 'closing') return;
    const headers: StompHeaders = { message, 'content-type': 'text/plain' };
    if (receiptId !== undefined) headers['receipt-id'] = receiptId;
    this.send(encodeFrame('ERROR', headers, detail ?? message));
    this.close(message);
  }

  private dispose(): void {
    this.state = 'closing';
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.length = 0;
    this.server.unregister(this);
  }
}

class StompServer {
  readonly logger: RealtimeLogger;
  readonly authenticate: StompServerOptions['authenticate'];
  readonly heartbeat: { outgoingMs: number; incomingMs: number };
  readonly heartbeatGraceFactor: number;
  readonly maxFrameBytes: number;
  readonly connectTimeoutMs: number;
  readonly maxConnectionsPerUser: number;
  readonly onPresence: StompServerOptions['onPresence'];
  readonly connections = new Set<StompConnection>();
  readonly connectionsByUser = new Map<string, Set<StompConnection>>();

  constructor(options: StompServerOptions) {
    this.logger = options.logger ?? fallbackLogger;
    this.authenticate = options.authenticate;
    this.heartbeat = options.heartbeat ?? { outgoingMs: 4_000, incomingMs: 4_000 };
    this.heartbeatGraceFactor = options.heartbeatGraceFactor ?? 2;
    this.maxFrameBytes = options.maxFrameBytes ?? 64 * 1024;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.maxConnectionsPerUser = options.maxConnectionsPerUser ?? 20;
    this.onPresence = options.onPresence;
  }

  accept(socket: WebSocket): void {
    this.connections.add(new StompConnection(socket, this));
  }

  register(connection: StompConnection): void {
    if (!connection.userId) return;
    let userConnections = this.connectionsByUser.get(connection.userId);
    if (!userConnections) {
      userConnections = new Set();
      this.connectionsByUser.set(connection.userId, userConnections);
      this.onPresence?.(connection.userId, true);
    }
    userConnections.add(connection);
  }

  unregister(connection: StompConnection): void {
    this.connections.delete(connection);
    if (!connection.userId) return;
    const userConnections = this.connectionsByUser.get(connection.userId);
    userConnections?.delete(connection);
    if (userConnections?.size === 0) {
      this.connectionsByUser.delete(connection.userId);
      this.onPresence?.(connection.userId, false);
    }
  }

  deliver(userId: string, message: UserMessage, options: PublishOptions): void {
    if (message.type === DISCONNECT_MESSAGE_TYPE) {
      const sessionKey = (message.data as { sessionKey?: unknown } | null)?.sessionKey;
      this.disconnectUser(userId, typeof sessionKey === 'string' ? sessionKey : undefined);
      return;
    }
    const userConnections = this.connectionsByUser.get(userId);
    if (!userConnections) return;
    for (const connection of userConnections) {
      if (connection.sessionId !== options.exceptSessionId) connection.deliver(message);
    }
  }

  disconnectUser(userId: string, sessionKey?: string): number {
    const userConnections = [...(this.connectionsByUser.get(userId) ?? [])].filter(
      (connection) => sessionKey === undefined || connection.sessionKey === sessionKey,
    );
    for (const connection of userConnections) connection.close('Logged out');
    return userConnections.length;
  }
}

/**
 * Serves STOMP 1.2 over WebSocket on `path` of an existing HTTP server (e.g. `fastify.server`),
 * delivering each user's bus messages to that user's subscriptions to /user/queue/msg.
 */
export function attachStompServer(
  httpServer: HttpServer,
  options: StompServerOptions,
): StompServerHandle {
  const path = options.path ?? DEFAULT_STOMP_PATH;
  const server = new StompServer(options);
  const webSockets = new WebSocketServer({
    noServer: true,
    // Headroom so that a slightly oversized frame gets a STOMP ERROR, not a bare close 1009.
    maxPayload: server.maxFrameBytes * 2,
    // Pick v12.stomp when offered; a client that offers none is still served.
    handleProtocols: (protocols) => (protocols.has(STOMP_SUBPROTOCOL) ? STOMP_SUBPROTOCOL : false),
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname !== path) {
      // Leave other paths to other upgrade handlers; with none, nobody would ever answer.
      if (httpServer.listenerCount('upgrade') === 1) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
      return;
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) => server.accept(webSocket));
  };
  httpServer.on('upgrade', onUpgrade);

  let unsubscribe: (() => Promise<void>) | null = null;
  const ready = options.bus
    .subscribe((userId, message, publishOptions) => server.deliver(userId, message, publishOptions))
    .then((stop) => {
      unsubscribe = stop;
    });
  // The caller awaits `ready` to see a failure; this keeps it from being an unhandled rejection.
  ready.catch((error: unknown) => {
    server.logger.error({ err: error }, 'Realtime bus subscription failed');
  });

  return {
    ready,
    connectionCount: () => server.connections.size,
    disconnectUser: (userId) => server.disconnectUser(userId),
    isConnected: (userId) => (server.connectionsByUser.get(userId)?.size ?? 0) > 0,
    async close() {
      httpServer.off('upgrade', onUpgrade);
      // A server that never got ready closes all the same (its start already reported why).
      await ready.catch(() => {});
      await unsubscribe?.();
      const closed = [...webSockets.clients].map(
        (webSocket) =>
          new Promise<void>((resolve) => {
            if (webSocket.readyState === webSocket.CLOSED) return resolve();
            webSocket.once('close', () => resolve());
            webSocket.close(1001, 'Server shutting down');
            // A peer that never answers the close handshake must not hold shutdown up.
            setTimeout(() => webSocket.terminate(), 1_000).unref();
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => webSockets.close(() => resolve()));
    },
  };
}
