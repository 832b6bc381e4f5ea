import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, setApiErrorHandler } from './client';

/** A stand-in server that records each request's Idempotency-Key and answers when told. */
let server: Server;
let base = '';
const seen: { key: string | undefined; dropped: boolean }[] = [];
let hold: Promise<void> = Promise.resolve();
let dropNext = 0;

const keyOf = (request: IncomingMessage) => {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : undefined;
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const dropped = dropNext > 0;
    seen.push({ key: keyOf(request), dropped });
    if (dropped) {
      dropNext--;
      request.socket.destroy(); // the reply is lost on the way
      return;
    }
    void hold.then(() => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ code: 0, message: 'ok', data: { n: seen.length } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  seen.length = 0;
  hold = Promise.resolve();
  setApiErrorHandler(null);
});

const start = (body: object, idempotent = true) =>
  apiRequest(`${base}/api/highlight_moment/task/start`, {
    method: 'POST',
    body,
    query: { url_source: 'upload' },
    idempotent,
  });

describe('idempotency keys of paid calls', () => {
  it('gives a double click one key, and the next click a new one', async () => {
    let answer!: () => void;
    hold = new Promise((resolve) => (answer = resolve));
    const first = start({ url: 'upload://1' });
    const second = start({ url: 'upload://1' });
    await expect.poll(() => seen.length).toBe(2);
    answer();
    await Promise.all([first, second]);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);

    await start({ url: 'upload://1' });
    expect(seen[2]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[2]!.key).not.toBe(seen[0]!.key);
  });

  it('gives calls that ask for different work different keys, and other calls none', async () => {
    let answer!: () => void;
    hold = new Promise((resolve) => (answer = resolve));
    const calls = [start({ url: 'upload://1' }), start({ url: 'upload://2' })];
    await expect.poll(() => seen.length).toBe(2);
    answer();
    await Promise.all(calls);
    expect(seen[1]!.key).not.toBe(seen[0]!.key);

    await start({ url: 'upload://3' }, false);
    expect(seen[2]!.key).toBeUndefined();
  });

  it('sends the retry after a lost reply with the same key', async () => {
    // The Network Disconnected dialog's Retry: the same call again.
    setApiErrorHandler({ onError: () => undefined, onNetworkFailure: async () => 'retry' });
    dropNext = 1;
    await start({ url: 'upload://9' });
    expect(seen.map((request) => request.dropped)).toEqual([true, false]);
    expect(seen[1]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });
});
