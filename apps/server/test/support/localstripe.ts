import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort } from './process.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const PYTHON = path.join(REPO_ROOT, '.tools/test-venv/bin/python');
const LAUNCHER = path.join(import.meta.dirname, 'localstripe_launcher.py');

/** Why localstripe cannot run here (scripts/setup.sh installs it), or null when it can. */
export function localstripeMissing(): string | null {
  // The console script pip installs with the package (the launcher imports the package itself).
  const installed = fs.existsSync(path.join(REPO_ROOT, '.tools/test-venv/bin/localstripe'));
  if (installed) return null;
  const reason = 'localstripe is not installed in .tools/test-venv (run bash scripts/setup.sh)';
  // Where CI installs the test tools, a missing fake is a failure, not a skip.
  if (process.env.REQUIRE_ALL === '1') throw new Error(reason);
  return reason;
}

export interface LocalStripe {
  /** http://127.0.0.1:PORT, the SDK's api base. */
  url: string;
  stop(): Promise<void>;
}

/** localstripe on a free loopback port, its state in memory (see localstripe_launcher.py). */
export async function startLocalStripe(): Promise<LocalStripe> {
  const port = await freePort();
  const child = spawn(PYTHON, [LAUNCHER, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`localstripe exited early:\n${output}`);
    const up = await fetch(`${url}/v1/customers`, {
      headers: { authorization: 'Bearer sk_test_x' },
    })
      .then((reply) => reply.status === 200)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`localstripe did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One webhook localstripe sent, as it sent it (signed bytes), and what the app answered. */
export interface Delivery {
  id: string;
  type: string;
  /** data.object.id: the subscription, invoice or customer the event is about. */
  objectId: string | null;
  body: string;
  signature: string;
  /** The app's answer; absent while the delivery is held back. */
  status?: number;
  outcome?: string;
}

export interface WebhookRelay {
  /** Where localstripe posts its webhooks. */
  url: string;
  deliveries: Delivery[];
  /** Holds back the next event of `type` (the app does not see it until `release`). */
  holdNext(type: string): void;
  /** The first delivery matching, once localstripe sent it (and the app answered, unless held). */
  waitFor(match: (delivery: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  /** Posts a held or already delivered event again, byte for byte with localstripe's signature. */
  send(delivery: Delivery): Promise<Delivery>;
  close(): Promise<void>;
}

/**
 * Sits between localstripe's webhook sender and the app's webhook route: it forwards every event
 * unchanged and keeps the signed bytes, so a test can wait for an event, hold one back to deliver
 * it out of order, or replay it exactly as Stripe would retry it.
 */
export async function startWebhookRelay(target: string): Promise<WebhookRelay> {
  const deliveries: Delivery[] = [];
  const held = new Set<string>();
  const send = async (delivery: Delivery) => {
    const reply = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
      body: delivery.body,
    });
    const text = await reply.text();
    const outcome = (() => {
      try {
        return (JSON.parse(text) as { outcome?: string }).outcome;
      } catch {
        return undefined; // not JSON: the status says enough
      }
    })();
    return { ...delivery, status: reply.status, outcome };
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const event = JSON.parse(body) as {
        id: string;
        type: string;
        data: { object: { id?: string } };
      };
      const delivery: Delivery = {
        id: event.id,
        type: event.type,
        objectId: event.data.object.id ?? null,
        body,
        signature: String(req.headers['stripe-signature'] ?? ''),
      };
      if (held.delete(event.type)) {
        deliveries.push(delivery);
        res.writeHead(200).end();
        return;
      }
      send(delivery).then(
        (answered) => {
          deliveries.push(answered);
          res.writeHead(answered.status!).end();
        },
        (error: unknown) => {
          // localstripe only logs a failed delivery; the test sees it as a missing answer.
          deliveries.push({ ...delivery, status: 0, outcome: String(error) });
          res.writeHead(502).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    deliveries,
    holdNext: (type) => void held.add(type),
    async waitFor(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(match);
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = deliveries.map((d) => `${d.type} ${d.objectId}`).join(', ');
          throw new Error(`no matching webhook from localstripe; delivered: ${seen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    send,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
