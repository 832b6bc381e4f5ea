// Shared by the realtime tests and the bench: a real HTTP server with the STOMP endpoint, real
// clients (@stomp/stompjs, or raw WebSocket frames for what stompjs will not send).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as connectTcp } from 'node:net';
import { Client, type IFrame } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import type { RealtimeBus, UserMessage } from '../../src/realtime/bus.js';
import {
  encodeFrame,
  StompFrameDecoder,
  type StompFrame,
  type StompHeaders,
} from '../../src/realtime/frame.js';
import type { RealtimeLogger } from '../../src/realtime/logger.js';
import {
  attachStompServer,
  USER_QUEUE_DESTINATION,
  type StompServerHandle,
  type StompServerOptions,
} from '../../src/realtime/stomp-server.js';

export const silentLogger: RealtimeLogger = { info: () => {}, warn: () => {}, error: () => {} };

export interface TestStompServer {
  url: string;
  handle: StompServerHandle;
  httpServer: Server;
  close(): Promise<void>;
}

/** Starts an HTTP server on loopback whose tokens map to users through `tokens`. */
export async function startStompServer(
  bus: RealtimeBus,
  tokens: Map<string, string>,
  options: Partial<StompServerOptions> = {},
): Promise<TestStompServer> {
  const httpServer = createServer((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const handle = attachStompServer(httpServer, {
    bus,
    logger: silentLogger,
    authenticate: async (token) => {
      const userId = tokens.get(token);
      return userId ? { userId } : null;
    },
    ...options,
  });
  await handle.ready;
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/stomp-ws`,
    handle,
    httpServer,
    async close() {
      await handle.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface TestStompClient {
  client: Client;
  /** The CONNECTED frame's session header (what the web client sends as X-Stomp-Session). */
  session: string;
  messages: UserMessage[];
  /** Headers of every MESSAGE frame, in order. */
  messageHeaders: StompHeaders[];
  disconnect(): Promise<void>;
}

/** Connects with @stomp/stompjs as the web app does and subscribes to the user queue. */
export function connectStompClient(
  url: string,
  token: string | undefined,
  options: { heartbeatMs?: number } = {},
): Promise<TestStompClient> {
  const heartbeatMs = options.heartbeatMs ?? 4_000;
  return new Promise((resolve, reject) => {
    const messages: UserMessage[] = [];
    const messageHeaders: StompHeaders[] = [];
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
      connectHeaders: token === undefined ? {} : { token },
      heartbeatIncoming: heartbeatMs,
      heartbeatOutgoing: heartbeatMs,
      reconnectDelay: 0,
      debug: () => {},
    });
    client.onConnect = (connected: IFrame) => {
      const receipt = `subscribed-${Math.random()}`;
      client.watchForReceipt(receipt, () =>
        resolve({
          client,
          session: connected.headers.session ?? '',
          messages,
          messageHeaders,
          disconnect: () => client.deactivate(),
        }),
      );
      client.subscribe(
        USER_QUEUE_DESTINATION,
        (message) => {
          messageHeaders.push({ ...message.headers });
          messages.push(JSON.parse(message.body) as UserMessage);
        },
        { receipt },
      );
    };
    client.onStompError = (frame: IFrame) => {
      void client.deactivate();
      reject(new StompErrorFrame(frame.headers.message ?? '', frame.body));
    };
    client.onWebSocketClose = () => reject(new Error('WebSocket closed before CONNECTED'));
    client.activate();
  });
}

export class StompErrorFrame extends Error {
  constructor(
    readonly stompMessage: string,
    readonly body: string,
  ) {
    super(`STOMP ERROR: ${stompMessage}`);
  }
}

export interface RawStompClient {
  socket: WebSocket;
  frames: StompFrame[];
  heartbeatsReceived: number;
  closed: Promise<number>;
  isClosed(): boolean;
  send(command: string, headers: StompHeaders, body?: string): void;
  sendRaw(data: string): void;
  nextFrame(command: string): Promise<StompFrame>;
}

/** A WebSocket client that speaks STOMP frame by frame, to send what stompjs never would. */
export async function openRawStompClient(url: string): Promise<RawStompClient> {
  const socket = new WebSocket(url, ['v12.stomp']);
  const decoder = new StompFrameDecoder(1024 * 1024);
  const frames: StompFrame[] = [];
  let closed = false;
  const raw: RawStompClient = {
    socket,
    frames,
    heartbeatsReceived: 0,
    closed: new Promise((resolve) =>
      socket.on('close', (code) => {
        closed = true;
        resolve(code);
      }),
    ),
    isClosed: () => closed,
    send: (command, headers, body) => socket.send(encodeFrame(command, headers, body)),
    sendRaw: (data) => socket.send(data),
    async nextFrame(command) {
      await waitFor(() => frames.some((frame) => frame.command === command), `${command} frame`);
      return frames.find((frame) => frame.command === command)!;
    },
  };
  socket.on('message', (data: Buffer) => {
    if (data.toString() === '\n') raw.heartbeatsReceived += 1;
    frames.push(...decoder.push(Buffer.from(data)));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return raw;
}

/** True when something listens on host:port (used to skip tests whose service is absent). */
export function isReachable(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port });
    const finish = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
