// Realtime channel under load: 1,000 concurrent STOMP connections on loopback, each a distinct
// user subscribed to /user/queue/msg with 4000 ms heart-beats, then messages published
// through the in-process bus. Clients and server share this process (and its CPU), so latency
// includes the client side's parsing too. Stops by itself (hard limit below).
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { InProcessBus } from '../apps/server/src/realtime/bus.js';
import { encodeFrame, StompFrameDecoder } from '../apps/server/src/realtime/frame.js';
import { startStompServer } from '../apps/server/test/support/stomp.js';

const CONNECTIONS = 1_000;
const CONNECT_CONCURRENCY = 100;
const PACED_MESSAGES = 3_000;
const PACED_RATE_PER_SECOND = 1_000;
const HEARTBEAT_MS = 4_000;
const HARD_LIMIT_MS = 120_000;

/** Soft limit on open files; each connection costs two descriptors here (client and server end). */
function openFileLimit(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (match?.[1] && match[1] !== 'unlimited') return Number(match[1]);
  } catch {
    // Not Linux: assume the common default.
  }
  return 1_024;
}

function percentile(sortedValues: number[], fraction: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const index = Math.min(sortedValues.length - 1, Math.ceil(fraction * sortedValues.length) - 1);
  return sortedValues[Math.max(0, index)]!;
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);

interface BenchClient {
  socket: WebSocket;
  received: number;
}

export default async function run(): Promise<void> {
  const fdLimit = openFileLimit();
  const connections = Math.min(CONNECTIONS, Math.floor((fdLimit - 100) / 2));
  if (connections < CONNECTIONS) {
    console.log(
      `stomp: open-file limit ${fdLimit} allows ${connections} connections, not ${CONNECTIONS}`,
    );
  }

  const tokens = new Map<string, string>();
  for (let index = 0; index < connections; index += 1)
    tokens.set(`token-${index}`, `user-${index}`);
  const bus = new InProcessBus();
  const rssBefore = process.memoryUsage().rss;
  const server = await startStompServer(bus, tokens, {
    heartbeat: { outgoingMs: HEARTBEAT_MS, incomingMs: HEARTBEAT_MS },
  });
  const clients: BenchClient[] = [];
  const latencies: number[] = [];
  let onDelivery: (() => void) | null = null;
  const hardLimit = setTimeout(() => {
    console.error('stomp: bench exceeded its time limit, stopping');
    process.exit(1);
  }, HARD_LIMIT_MS);
  hardLimit.unref();

  const openClient = (index: number) =>
    new Promise<number>((resolve, reject) => {
      const startedAt = performance.now();
      const socket = new WebSocket(server.url, ['v12.stomp']);
      const decoder = new StompFrameDecoder(1024 * 1024);
      const client: BenchClient = { socket, received: 0 };
      socket.on('open', () => {
        socket.send(
          encodeFrame('CONNECT', {
            'accept-version': '1.2',
            host: 'moments',
            token: `token-${index}`,
            'heart-beat': `${HEARTBEAT_MS},${HEARTBEAT_MS}`,
          }),
        );
        socket.send(
          encodeFrame('SUBSCRIBE', { id: 'sub-0', destination: '/user/queue/msg', receipt: 'ok' }),
        );
      });
      socket.on('message', (data: Buffer) => {
        for (const frame of decoder.push(data)) {
          if (frame.command === 'RECEIPT') {
            clients[index] = client;
            resolve(performance.now() - startedAt);
          } else if (frame.command === 'MESSAGE') {
            const message = JSON.parse(frame.body.toString()) as { data: { sentAt: number } };
            latencies.push(performance.now() - message.data.sentAt);
            client.received += 1;
            onDelivery?.();
          } else if (frame.command === 'ERROR') {
            reject(new Error(frame.body.toString()));
          }
        }
      });
      socket.on('error', reject);
    });

  try {
    // Connect in waves so the listen backlog never overflows.
    const connectStartedAt = performance.now();
    const connectTimes: number[] = [];
    for (let first = 0; first < connections; first += CONNECT_CONCURRENCY) {
      const wave = [];
      for (let index = first; index < Math.min(first + CONNECT_CONCURRENCY, connections); index++) {
        wave.push(openClient(index));
      }
      connectTimes.push(...(await Promise.all(wave)));
    }
    const connectTotalMs = performance.now() - connectStartedAt;
    connectTimes.sort((a, b) => a - b);
    const clientHeartbeats = setInterval(() => {
      for (const client of clients) client.socket.send('\n');
    }, HEARTBEAT_MS);
    const rssConnected = process.memoryUsage().rss;

    // Paced: one message to a rotating user every 1/rate s, as notifications trickle in.
    const pacedStartedAt = performance.now();
    for (let sent = 0; sent < PACED_MESSAGES; sent += 1) {
      const due = pacedStartedAt + (sent * 1000) / PACED_RATE_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      await bus.publish(`user-${sent % connections}`, {
        type: 'TASK_STATUS_UPDATE',
        data: { task_status: 'SUCCESS', task_title: `Task ${sent}`, sentAt: performance.now() },
      });
    }
    await new Promise<void>((resolve) => {
      onDelivery = () => latencies.length >= PACED_MESSAGES && resolve();
      onDelivery();
    });
    const pacedLatencies = latencies.splice(0).sort((a, b) => a - b);

    // Burst: every user gets one message at the same moment (e.g. a broadcast maintenance note).
    const burstStartedAt = performance.now();
    for (let index = 0; index < connections; index += 1) {
      await bus.publish(`user-${index}`, {
        type: 'TASK_STATUS_UPDATE',
        data: { task_status: 'SUCCESS', task_title: 'Burst', sentAt: performance.now() },
      });
    }
    await new Promise<void>((resolve) => {
      onDelivery = () => latencies.length >= connections && resolve();
      onDelivery();
    });
    const burstMs = performance.now() - burstStartedAt;
    const burstLatencies = latencies.splice(0).sort((a, b) => a - b);
    clearInterval(clientHeartbeats);

    // User i got the paced messages sent at i, i + connections, ... plus one from the burst.
    const expectedFor = (index: number) =>
      Math.max(0, Math.ceil((PACED_MESSAGES - index) / connections)) + 1;
    const misdelivered = clients.filter(
      (client, index) => client.received !== expectedFor(index),
    ).length;
    console.log(
      `stomp: ${connections} connections in ${ms(connectTotalMs)} ms ` +
        `(per connection CONNECT..SUBSCRIBE receipt p50 ${ms(percentile(connectTimes, 0.5))} ms, ` +
        `p99 ${ms(percentile(connectTimes, 0.99))} ms, waves of ${CONNECT_CONCURRENCY})`,
    );
    console.log(
      `stomp: paced ${PACED_MESSAGES} messages at ${PACED_RATE_PER_SECOND}/s: latency ` +
        `p50 ${ms(percentile(pacedLatencies, 0.5))} ms, p99 ${ms(percentile(pacedLatencies, 0.99))} ms`,
    );
    console.log(
      `stomp: burst of ${connections} messages (one per user) delivered in ${ms(burstMs)} ms: latency ` +
        `p50 ${ms(percentile(burstLatencies, 0.5))} ms, p99 ${ms(percentile(burstLatencies, 0.99))} ms`,
    );
    console.log(
      `stomp: RSS ${megabytes(rssBefore)} MB before, ${megabytes(rssConnected)} MB with ` +
        `${connections} connections (server and clients in one process: ` +
        `${((rssConnected - rssBefore) / 1024 / connections).toFixed(1)} KB per pair), ` +
        `${megabytes(process.memoryUsage().rss)} MB at the end; ` +
        `clients with a wrong message count: ${misdelivered}`,
    );
  } finally {
    clearTimeout(hardLimit);
    for (const client of clients) client?.socket.terminate();
    await server.close();
    await bus.close();
  }
}

// Allow `npx tsx bench/stomp.bench.ts` as well as the shared runner.
if (import.meta.url === `file://${process.argv[1]}`) await run();
