/**
 * `postToPublicUrl`, the webhook sender: it goes through the same guard as links (a loopback or
 * private receiver is refused before anything is sent, also when DNS answers a public address at
 * the check and a private one at connect), unless private receivers are allowed; a receiver that
 * does not answer in time is a TIMEOUT.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToPublicUrl } from './index.js';

describe('postToPublicUrl', () => {
  let server: Server;
  let port: number;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        if (request.url === '/slow') return; // never answers
        response.statusCode = 202;
        response.end('accepted');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a loopback receiver unless private receivers are allowed', async () => {
    const url = `http://127.0.0.1:${port}/hook`;
    await expect(
      postToPublicUrl(url, { body: '{"a":1}', headers: {}, allowHosts: [] }),
    ).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(bodies).toEqual([]);

    const answer = await postToPublicUrl(url, {
      body: '{"a":1}',
      headers: { 'webhook-id': 'msg_1' },
      allowPrivate: true,
    });
    expect(answer).toEqual({ status: 202, bodyStart: 'accepted' });
    expect(bodies).toEqual(['{"a":1}']);
  });

  it('refuses a host whose address turns private between the check and the connection', async () => {
    let lookups = 0;
    const rebinding = async () =>
      lookups++ === 0
        ? [{ address: '93.184.216.34', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }];
    await expect(
      postToPublicUrl(`http://rebind.example:${port}/hook`, {
        body: '{}',
        headers: {},
        allowHosts: [],
        lookup: rebinding,
      }),
    ).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(lookups).toBe(2);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    await expect(
      postToPublicUrl(`http://127.0.0.1:${port}/slow`, {
        body: '{}',
        headers: {},
        allowPrivate: true,
        timeoutMs: 300,
      }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses what is not an http(s) address', async () => {
    for (const link of ['ftp://example.com/x', 'not a link']) {
      await expect(
        postToPublicUrl(link, { body: '{}', headers: {}, allowPrivate: true }),
      ).rejects.toMatchObject({ code: 'INVALID_URL' });
    }
  });
});
