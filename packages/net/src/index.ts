/**
 * Fetching user-given links safely. A link is a request our server makes on a user's behalf, so it
 * must never reach the machine itself or the private network behind it (SSRF): every address a
 * host resolves to is checked, at every redirect hop, and again when the socket connects (so a DNS
 * answer that changes between check and use gains nothing). Operators can allow chosen hosts
 * (e.g. a media server on their LAN): the server passes its MEDIA_FETCH_ALLOW_HOSTS as `allowHosts`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { promisify } from 'node:util';
import type { UrlSource } from '@moments/contract';
import { detectVideoSource, normalizeVideoUrl, VideoLinkError } from '@moments/domain/links';
import { LinkError } from './errors.js';

export { LinkError, isLinkError, type LinkErrorCode } from './errors.js';

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export interface PublicUrlOptions {
  /**
   * Hosts, host:port pairs or IP addresses that may be fetched even though they are private.
   * Default: none (the server passes its MEDIA_FETCH_ALLOW_HOSTS).
   */
  allowHosts?: string[];
  /** DNS resolver (all addresses); tests swap it to simulate answers. */
  lookup?: LookupAll;
}

const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];
const BLOCKED_V6: Array<[string, number, string]> = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['100::', 64, 'a discard address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['fc00::', 7, 'a unique-local address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

interface BlockedRange {
  list: BlockList;
  type: 'ipv4' | 'ipv6';
  reason: string;
}

const blockLists: BlockedRange[] = [
  ...BLOCKED_V4.map(([net, prefix, reason]) => blockedRange(net, prefix, 'ipv4', reason)),
  ...BLOCKED_V6.map(([net, prefix, reason]) => blockedRange(net, prefix, 'ipv6', reason)),
];

function blockedRange(
  net: string,
  prefix: number,
  type: 'ipv4' | 'ipv6',
  reason: string,
): BlockedRange {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, reason };
}

/**
 * Why an IP address must not be fetched, or undefined when it is public. IPv6 forms that carry an
 * IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by that IPv4 address.
 */
export function blockedAddressReason(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const embedded = embeddedIpv4(plain);
    if (embedded) return blockedAddressReason(embedded);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blockLists.find((entry) => entry.type === type && entry.list.check(plain, type))?.reason;
}

function embeddedIpv4(ipv6: string): string | undefined {
  const bytes = ipv6Bytes(ipv6);
  if (!bytes) return undefined;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const v4 = (offset: number) => bytes.slice(offset, offset + 4).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12); // mapped
  if (zeros(0, 12) && !zeros(12, 14)) return v4(12); // deprecated "compatible" form
  if (
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    zeros(4, 12)
  ) {
    return v4(12); // NAT64
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2); // 6to4
  return undefined;
}

function ipv6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    text =
      text.slice(0, -dotted[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group || '0', 16);
    return [value >> 8, value & 0xff];
  });
}

/** Every address a host resolves to (the system resolver, in its own order). */
export function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return promisify(dnsLookup)(hostname, { all: true, verbatim: true }) as Promise<LookupAddress[]>;
}

/** Whether the operator allowed this URL's host (or host:port, or one of its addresses). */
export function isAllowedHost(url: URL, allowHosts: string[], address?: string): boolean {
  if (allowHosts.length === 0) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowHosts.some((written) => {
    // Host names are case-insensitive, and operators write them as they like.
    const entry = written.trim().toLowerCase();
    return (
      entry === host ||
      entry === `${host}:${port}` ||
      entry === `[${host}]:${port}` ||
      (address !== undefined && entry.replace(/^\[|\]$/g, '') === address.toLowerCase())
    );
  });
}

/** The parsed address, when it is one and http(s); INVALID_URL otherwise. */
export function httpUrlOf(link: string | URL): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new LinkError('INVALID_URL', 'This is not a valid link.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LinkError('INVALID_URL', 'Only http and https links are supported.');
  }
  return url;
}

/**
 * Refuse a URL our server must not fetch: anything but http(s), and hosts that resolve to
 * loopback, private, link-local, CGNAT, unique-local or other non-public addresses, unless the
 * operator allowed the host. Returns the parsed URL and its addresses.
 */
export async function assertPublicUrl(
  link: string | URL,
  opts: PublicUrlOptions = {},
): Promise<{ url: URL; addresses: string[] }> {
  const url = httpUrlOf(link);
  const allowHosts = opts.allowHosts ?? [];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await (opts.lookup ?? lookupAll)(host)).map((entry) => entry.address);
    } catch (error) {
      throw new LinkError('LINK_UNREACHABLE', `The site ${host} could not be found.`, {
        cause: error,
      });
    }
    if (addresses.length === 0) {
      throw new LinkError('LINK_UNREACHABLE', `The site ${host} could not be found.`);
    }
  }
  if (isAllowedHost(url, allowHosts)) return { url, addresses };
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason && !isAllowedHost(url, allowHosts, address)) {
      throw new LinkError(
        'PRIVATE_ADDRESS',
        `This link points to ${reason}, which cannot be fetched.`,
        { details: { host, address } },
      );
    }
  }
  return { url, addresses };
}

/** A socket lookup that re-checks the addresses at connect time (defeats DNS rebinding). */
function guardedLookup(url: URL, opts: PublicUrlOptions, allowHosts: string[]): LookupFunction {
  const resolveAll = opts.lookup ?? lookupAll;
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (entries) => {
        const usable = entries.filter(
          (entry) =>
            !blockedAddressReason(entry.address) || isAllowedHost(url, allowHosts, entry.address),
        );
        const family = typeof options === 'object' ? options.family : options;
        const matching = usable.filter((entry) => !family || entry.family === family);
        if (matching.length === 0) {
          const error = Object.assign(new Error(`blocked address for ${hostname}`), {
            code: 'PRIVATE_ADDRESS',
          });
          callback(error, '', 4);
          return;
        }
        if (typeof options === 'object' && options.all) {
          (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, matching);
        } else {
          callback(null, matching[0]!.address, matching[0]!.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

export type ResolvedLinkKind = 'media' | 'html' | 'platform';

export interface ResolvedMediaUrl {
  /** The address after redirects (for platforms: the normalized link, not fetched). */
  finalUrl: string;
  source: Exclude<UrlSource, 'upload'>;
  /** media: the address serves a media file; html: a page that embeds media (for yt-dlp);
   * platform: a known site yt-dlp handles, not fetched here. */
  kind: ResolvedLinkKind;
  status?: number;
  contentType?: string;
  contentLength?: number;
  /** Every address visited before the final one. */
  redirects: string[];
}

export interface ResolveOptions extends PublicUrlOptions {
  maxRedirects?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const MEDIA_TYPES =
  /^(video\/|audio\/|application\/(octet-stream|x-mpegurl|vnd\.apple\.mpegurl|dash\+xml|mp4|ogg)|binary\/octet-stream)/i;
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;
// Signs that a page carries a video yt-dlp's generic extractor can find.
const EMBEDDED_MEDIA =
  /<video|<source[^>]+src|og:video|\.m3u8|\.mpd\b|\.mp4\b|\.webm\b|\.mov\b|player\.vimeo|youtube\.com\/embed/i;
const PAGE_SNIFF_BYTES = 512 * 1024;

/**
 * Follow a link's redirects by hand (at most `maxRedirects`, default 5), checking every hop with
 * `assertPublicUrl`, and tell what it ends at. Known platforms (YouTube, Vimeo...) are not fetched:
 * yt-dlp handles them. Errors: LINK_NOT_FOUND (404/410), LINK_NOT_MEDIA (a page or file with no
 * video), LINK_UNREACHABLE (network failure, other HTTP errors, too many redirects),
 * PRIVATE_ADDRESS, INVALID_URL.
 */
export async function resolveMediaUrl(
  link: string,
  opts: ResolveOptions = {},
): Promise<ResolvedMediaUrl> {
  let normalized: string;
  let source: Exclude<UrlSource, 'upload'>;
  try {
    normalized = normalizeVideoUrl(link);
    source = detectVideoSource(normalized);
  } catch (error) {
    if (error instanceof VideoLinkError) {
      throw new LinkError('INVALID_URL', error.message, { cause: error });
    }
    throw error;
  }
  if (source !== 'direct') return { finalUrl: normalized, source, kind: 'platform', redirects: [] };

  const maxRedirects = opts.maxRedirects ?? 5;
  const allowHosts = opts.allowHosts ?? [];
  const redirects: string[] = [];
  let current = normalized;
  for (;;) {
    const { url } = await assertPublicUrl(current, { ...opts, allowHosts });
    const response = await openResponse(url, { ...opts, allowHosts });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (redirects.length >= maxRedirects) {
        throw new LinkError('LINK_UNREACHABLE', 'The link redirects too many times.');
      }
      redirects.push(current);
      current = new URL(location, url).toString();
      // A redirect onto a known platform is handed to yt-dlp like a direct platform link.
      const redirectedSource = detectVideoSource(current);
      if (redirectedSource !== 'direct') {
        return { finalUrl: current, source: redirectedSource, kind: 'platform', redirects };
      }
      continue;
    }
    const contentType = response.headers['content-type'] ?? '';
    const contentLength = Number(response.headers['content-length']);
    const result: ResolvedMediaUrl = {
      finalUrl: current,
      source: 'direct',
      kind: 'media',
      status,
      contentType,
      redirects,
      ...(Number.isFinite(contentLength) ? { contentLength } : {}),
    };
    if (status === 404 || status === 410) {
      response.destroy();
      throw new LinkError('LINK_NOT_FOUND', 'Nothing was found at this link (404).', {
        details: { status, url: current },
      });
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new LinkError('LINK_UNREACHABLE', `The link answered with an error (${status}).`, {
        details: { status, url: current },
      });
    }
    if (MEDIA_TYPES.test(contentType)) {
      response.destroy();
      return result;
    }
    if (HTML_TYPES.test(contentType)) {
      const page = await readStart(response, PAGE_SNIFF_BYTES);
      if (EMBEDDED_MEDIA.test(page)) return { ...result, kind: 'html' };
    } else {
      response.destroy();
    }
    throw new LinkError('LINK_NOT_MEDIA', 'This link does not lead to a video.', {
      details: { status, contentType, url: current },
    });
  }
}

function openResponse(
  url: URL,
  opts: ResolveOptions & { allowHosts: string[] },
): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; moments/0.1)', accept: '*/*' },
        lookup: guardedLookup(url, opts, opts.allowHosts),
        timeout: opts.timeoutMs ?? 15_000,
        signal: opts.signal,
      },
      resolve,
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'PRIVATE_ADDRESS') {
        reject(
          new LinkError(
            'PRIVATE_ADDRESS',
            'This link points to an address that cannot be fetched.',
          ),
        );
      } else if (error.name === 'AbortError') {
        reject(new LinkError('ABORTED', 'Fetching the link was cancelled.', { cause: error }));
      } else {
        reject(
          new LinkError('LINK_UNREACHABLE', `The link could not be reached (${error.message}).`, {
            cause: error,
          }),
        );
      }
    });
    req.end();
  });
}

async function readStart(response: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export interface DownloadPublicFileOptions extends ResolveOptions {
  /** Larger answers are refused (FILE_TOO_LARGE) and nothing is kept. */
  maxBytes: number;
  /** The Content-Type the answer must have (e.g. /^image\//); others are LINK_NOT_MEDIA. */
  contentType?: RegExp;
}

/**
 * Downloads a small public file (a link page's preview image) to `outFile` through the same guard
 * as every link: each redirect hop checked, private addresses refused (also at connect time), at
 * most `maxBytes` read. The file is removed again when anything fails.
 */
export async function downloadPublicFile(
  link: string,
  outFile: string,
  opts: DownloadPublicFileOptions,
): Promise<{ finalUrl: string; contentType: string; bytes: number }> {
  const maxRedirects = opts.maxRedirects ?? 5;
  const allowHosts = opts.allowHosts ?? [];
  let current = link;
  for (let hop = 0; ; hop++) {
    const { url } = await assertPublicUrl(current, { ...opts, allowHosts });
    const response = await openResponse(url, { ...opts, allowHosts });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= maxRedirects) {
        throw new LinkError('LINK_UNREACHABLE', 'The link redirects too many times.');
      }
      current = new URL(location, url).toString();
      continue;
    }
    const contentType = response.headers['content-type'] ?? '';
    if (
      status < 200 ||
      status >= 300 ||
      (opts.contentType && !opts.contentType.test(contentType))
    ) {
      response.destroy();
      throw new LinkError(
        status === 404 || status === 410 ? 'LINK_NOT_FOUND' : 'LINK_NOT_MEDIA',
        `The link did not answer with the expected file (${status}, ${contentType || 'no type'}).`,
        { details: { status, contentType, url: current } },
      );
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      response.destroy();
      throw tooLarge(opts.maxBytes);
    }
    const bytes = await writeAtMost(response, outFile, opts.maxBytes);
    return { finalUrl: current, contentType, bytes };
  }
}

async function writeAtMost(response: IncomingMessage, outFile: string, maxBytes: number) {
  const out = createWriteStream(outFile);
  let bytes = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    return bytes;
  } catch (error) {
    response.destroy();
    out.destroy();
    await rm(outFile, { force: true });
    throw error;
  }
}

function tooLarge(maxBytes: number): LinkError {
  return new LinkError('FILE_TOO_LARGE', `The file is larger than ${maxBytes} bytes.`, {
    details: { maxBytes },
  });
}

export interface PostToPublicUrlOptions extends PublicUrlOptions {
  headers: Record<string, string>;
  body: string;
  /** The whole exchange, connect to last byte; default 10 s. */
  timeoutMs?: number;
  /** Private and loopback addresses too (an operator's LAN, a test); still http(s) only. */
  allowPrivate?: boolean;
}

/** What a receiver answered: its status and the start of its body (for a delivery log). */
export interface PostAnswer {
  status: number;
  bodyStart: string;
}

/**
 * POSTs `body` to a user-given address through the same guard as every link: the address and,
 * at connect time, every address its host resolves to must be public (unless `allowPrivate`).
 * Redirects are not followed, a receiver's 3xx is its answer. Errors: INVALID_URL,
 * PRIVATE_ADDRESS, LINK_UNREACHABLE (network failure), TIMEOUT.
 */
export async function postToPublicUrl(
  link: string,
  options: PostToPublicUrlOptions,
): Promise<PostAnswer> {
  const allowHosts = options.allowHosts ?? [];
  const url = options.allowPrivate
    ? httpUrlOf(link)
    : (await assertPublicUrl(link, { ...options, allowHosts })).url;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'user-agent': 'moments-webhooks/1',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(options.body)),
          ...options.headers,
        },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup(url, options, allowHosts) }),
      },
      (response) => {
        readStart(response, 1024).then(
          (bodyStart) => {
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, bodyStart });
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(
              new LinkError('LINK_UNREACHABLE', 'The answer could not be read.', { cause: error }),
            );
          },
        );
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })),
      timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'PRIVATE_ADDRESS') {
        reject(new LinkError('PRIVATE_ADDRESS', 'This address cannot be reached from here.'));
      } else if (error.code === 'TIMEOUT') {
        reject(new LinkError('TIMEOUT', `No answer within ${Math.round(timeoutMs / 1000)} s.`));
      } else {
        reject(
          new LinkError(
            'LINK_UNREACHABLE',
            `The address could not be reached (${error.message}).`,
            {
              cause: error,
            },
          ),
        );
      }
    });
    req.end(options.body);
  });
}
