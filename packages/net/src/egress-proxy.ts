/**
 * An egress proxy for the tools that fetch links themselves (yt-dlp, and ffmpeg reading a URL).
 * Checking a link before handing it over is not enough: the tool does its own DNS lookup, follows
 * redirects, reads manifests and fetches HLS/DASH segments from any address those name. Run
 * through this proxy (yt-dlp `--proxy`, ffmpeg `-http_proxy`), every connection the tool opens is
 * resolved and checked here with the same private-address guard as the app's own requests
 * (`blockedAddressReason`, the operator's allow-list honoured), and the socket goes to the very
 * address that was checked, so a second DNS answer gains nothing.
 *
 * It speaks HTTP CONNECT (https and anything tunnelled) and plain-HTTP proxying (absolute-form
 * request lines), listens on 127.0.0.1 only, and records what it refused so the caller can report
 * PRIVATE_ADDRESS instead of a vague download error.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { blockedAddressReason, isAllowedHost, lookupAll, type PublicUrlOptions } from './index.js';

export interface EgressRefusal {
  /** host:port the tool tried to reach. */
  target: string;
  reason: string;
  /** The host has no address: not a refusal of a private network, the site does not exist. */
  notFound?: boolean;
}

/** The reason given for a host the lookup found no address for. */
const NOT_FOUND = 'a host that could not be found';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for yt-dlp `--proxy` and ffmpeg `-http_proxy`. */
  url: string;
  /** Connections refused so far. */
  refused: EgressRefusal[];
  close(): Promise<void>;
}

class RefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Where the proxy may connect, and the record of what it refused. */
interface EgressGuard {
  /** The address to connect to for host:port, or a RefusedError. */
  checkedAddress(host: string, port: number, protocol: 'http:' | 'https:'): Promise<string>;
  /** Records a refusal of `target` and returns the reason to answer with. */
  refuse(target: string, error: unknown): string;
}

/**
 * Start a proxy on a random loopback port. One per tool run keeps `refused` scoped to that run.
 */
export async function startEgressProxy(opts: PublicUrlOptions = {}): Promise<EgressProxy> {
  const refused: EgressRefusal[] = [];
  const guard = egressGuard(opts, refused);
  const sockets = new Set<Socket | Duplex>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    forwardPlainHttp(guard, req, res).catch(() => {
      // A request the proxy could not even start (a header Node refuses): the download fails
      // with a 502 and yt-dlp reports it; the proxy itself must never take its server down.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end();
    });
  });
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) =>
    tunnel(guard, sockets, req, client, head),
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The private-address guard of the app's own requests, for every connection a tool opens. */
function egressGuard(opts: PublicUrlOptions, refused: EgressRefusal[]): EgressGuard {
  const allowHosts = opts.allowHosts ?? [];
  return {
    async checkedAddress(host, port, protocol) {
      const bareHost = host.replace(/^\[|\]$/g, '');
      const url = new URL(`${protocol}//${isIP(bareHost) === 6 ? `[${bareHost}]` : bareHost}`);
      url.port = String(port);
      if (!Number.isInteger(port) || port <= 0 || port > 65535) {
        throw new RefusedError('an invalid port');
      }
      const addresses = isIP(bareHost)
        ? [bareHost]
        : // A failed lookup is refused just below as a host that could not be found.
          (await (opts.lookup ?? lookupAll)(bareHost).catch(() => [])).map(
            (entry) => entry.address,
          );
      if (addresses.length === 0) throw new RefusedError(NOT_FOUND);
      if (isAllowedHost(url, allowHosts)) return addresses[0]!;
      for (const address of addresses) {
        const reason = blockedAddressReason(address);
        if (reason && !isAllowedHost(url, allowHosts, address)) throw new RefusedError(reason);
      }
      return addresses[0]!;
    },
    refuse(target, error) {
      const reason = error instanceof RefusedError ? error.reason : 'an address that failed';
      refused.push(reason === NOT_FOUND ? { target, reason, notFound: true } : { target, reason });
      return reason;
    },
  };
}

/** Plain-HTTP proxying: an absolute-form request line, forwarded to the checked address. */
async function forwardPlainHttp(
  guard: EgressGuard,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
    if (target.protocol !== 'http:') throw new Error('not http');
  } catch {
    // Not a URL this proxy forwards: answered 400 here.
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Only absolute http URLs.\n');
    return;
  }
  const port = Number(target.port || 80);
  let address: string;
  try {
    address = await guard.checkedAddress(target.hostname, port, 'http:');
  } catch (error) {
    const reason = guard.refuse(`${target.hostname}:${port}`, error);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`Refused: ${reason}.\n`);
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest({
    host: address,
    port,
    method: req.method,
    path: `${target.pathname}${target.search}`,
    headers: { ...headers, host: target.host },
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  // yt-dlp hanging up mid-request: drop the upstream request too.
  req.on('error', () => upstream.destroy());
  req.pipe(upstream);
}

/** HTTP CONNECT: a tunnel to the checked address (https and anything else tunnelled). */
function tunnel(
  guard: EgressGuard,
  sockets: Set<Socket | Duplex>,
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
): void {
  sockets.add(client);
  client.on('close', () => sockets.delete(client));
  client.on('error', () => client.destroy());
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
  if (!match) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const host = match[1]!;
  const port = Number(match[2]);
  guard.checkedAddress(host, port, port === 80 ? 'http:' : 'https:').then(
    (address) => {
      const upstream = connect({ host: address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    },
    (error: unknown) => {
      const reason = guard.refuse(`${host}:${port}`, error);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nRefused: ${reason}.\n`);
    },
  );
}
