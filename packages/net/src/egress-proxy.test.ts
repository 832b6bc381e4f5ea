import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';

/** One raw CONNECT through the proxy; resolves with its status line. */
function tunnel(proxy: EgressProxy, target: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    });
    socket.once('data', (chunk) => {
      resolve(chunk.toString('latin1').split('\r\n')[0]!);
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

/** A plain-HTTP proxied GET of `url`; resolves with status and body. */
function proxiedGet(proxy: EgressProxy, url: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: Number(port), path: url, method: 'GET' },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('egress proxy for yt-dlp and ffmpeg', () => {
  let site: Server;
  let sitePort: number;
  const hits: string[] = [];

  beforeAll(async () => {
    site = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('hello from the allowed site');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  it('forwards plain HTTP and tunnels CONNECT to an allowed host:port', async () => {
    const proxy = await startEgressProxy({ allowHosts: [`127.0.0.1:${sitePort}`] });
    try {
      const answer = await proxiedGet(proxy, `http://127.0.0.1:${sitePort}/video.mp4`);
      expect(answer).toEqual({ status: 200, body: 'hello from the allowed site' });
      expect(hits).toContain('/video.mp4');
      expect(await tunnel(proxy, `127.0.0.1:${sitePort}`)).toMatch(/^HTTP\/1.1 200/);
      expect(proxy.refused).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses private addresses in every spelling, and names what it refused', async () => {
    const proxy = await startEgressProxy({ allowHosts: [`127.0.0.1:${sitePort}`] });
    try {
      hits.length = 0;
      // Same machine, another port than the allowed one.
      expect(await tunnel(proxy, `127.0.0.1:${sitePort + 1}`)).toMatch(/^HTTP\/1.1 403/);
      expect(await tunnel(proxy, '[::1]:443')).toMatch(/^HTTP\/1.1 403/);
      expect(await tunnel(proxy, '169.254.169.254:80')).toMatch(/^HTTP\/1.1 403/);
      const mapped = await proxiedGet(proxy, `http://[::ffff:127.0.0.1]:${sitePort}/`);
      expect(mapped.status).toBe(403);
      const metadata = await proxiedGet(proxy, 'http://169.254.169.254/latest/meta-data/');
      expect(metadata.status).toBe(403);
      expect(hits).toEqual([]);
      expect(proxy.refused.map((refusal) => refusal.reason)).toEqual([
        'a loopback address',
        'a loopback address',
        'a link-local address',
        'a loopback address',
        'a link-local address',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('resolves names itself and refuses one that points inside (a public-looking name)', async () => {
    const proxy = await startEgressProxy({
      allowHosts: [],
      lookup: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    try {
      expect(await tunnel(proxy, 'videos.example.com:443')).toMatch(/^HTTP\/1.1 403/);
      expect(proxy.refused).toEqual([
        { target: 'videos.example.com:443', reason: 'a private address' },
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('tells a host with no address apart from a refused one', async () => {
    const proxy = await startEgressProxy({
      allowHosts: [],
      lookup: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    try {
      expect(await tunnel(proxy, 'no-such-site.example:443')).toMatch(/^HTTP\/1.1 403/);
      expect(proxy.refused).toEqual([
        {
          target: 'no-such-site.example:443',
          reason: 'a host that could not be found',
          notFound: true,
        },
      ]);
    } finally {
      await proxy.close();
    }
  });
});
