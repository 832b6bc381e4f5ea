/**
 * SSRF through yt-dlp: whatever the app checked up front, yt-dlp makes its
 * own requests (redirects, manifests, segments, platform pages). Every one of them must pass the
 * private-address guard at connect time. The legitimate site is a loopback server the operator
 * allowed with MEDIA_FETCH_ALLOW_HOSTS (host:port); the "internal" server is another loopback port
 * that was not allowed and must never see a request.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LinkError } from '@moments/net';
import { MediaError } from '../errors/index.js';
import { runFfmpeg } from '../ffmpeg/index.js';
import { probeMedia } from '../probe/index.js';
import { makeTestVideo } from '../../test/support/index.js';
import { downloadVideo, fetchVideoMetadata, hasYtDlp, ytDlpPath } from './index.js';

const ytDlpFound = hasYtDlp();
if (!ytDlpFound) {
  console.log(`yt-dlp not found at ${ytDlpPath()}: run scripts/setup.sh (skipping SSRF tests)`);
}

interface Site {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function startSite(
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void,
): Promise<Site> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    Promise.resolve(handle(req, res, new URL(req.url ?? '/', 'http://x'))).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // The link guard's refusals come through as they are; the tools' failures are media errors.
  expect(error instanceof MediaError || error instanceof LinkError).toBe(true);
  return (error as MediaError | LinkError).code;
}

/** The app's own checker announces itself; yt-dlp sends a browser user agent. */
const isAppChecker = (req: IncomingMessage) => /moments\//.test(req.headers['user-agent'] ?? '');

describe.skipIf(!ytDlpFound)('yt-dlp cannot reach private addresses (SSRF)', () => {
  let work: string;
  let mp4: Buffer;
  let segments: Buffer[];
  let internal: Site;
  let site: Site;

  const mediaPlaylist = (segmentBase: string) =>
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:0',
      ...segments.flatMap((_, i) => ['#EXTINF:1.0,', `${segmentBase}/seg${i}.ts`]),
      '#EXT-X-ENDLIST',
      '',
    ].join('\n');
  const masterPlaylist = (variant: string) =>
    `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180\n${variant}\n`;

  const serveMedia = (res: ServerResponse, url: URL, base: string) => {
    const segment = /^\/seg(\d+)\.ts$/.exec(url.pathname);
    if (url.pathname.endsWith('.mp4')) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length });
      res.end(mp4);
    } else if (segment && segments[Number(segment[1])]) {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.end(segments[Number(segment[1])]);
    } else if (url.pathname === '/media.m3u8') {
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
      res.end(mediaPlaylist(base));
    } else {
      res.writeHead(404).end();
    }
  };

  // The site is allowed, as an operator allows a media server on their LAN; the internal one is not.
  let allowSite: { allowHosts: string[] };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'moments-ssrf-'));
    const video = await makeTestVideo(join(work, 'talk.mp4'), {
      durationSec: 3,
      width: 320,
      height: 180,
    });
    mp4 = await readFile(video);
    await mkdir(join(work, 'hls'));
    // Re-encoded with a keyframe every second so the stream has several segments.
    await runFfmpeg([
      ...['-i', video, '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-c:a', 'aac'],
      ...['-f', 'hls', '-hls_time', '1', '-hls_list_size', '0'],
      ...['-hls_segment_filename', join(work, 'hls', 'seg%d.ts'), join(work, 'hls', 'x.m3u8')],
    ]);
    segments = [];
    for (let i = 0; ; i++) {
      const data = await readFile(join(work, 'hls', `seg${i}.ts`)).catch(() => undefined);
      if (!data) break;
      segments.push(data);
    }

    internal = await startSite((_req, res, url) => serveMedia(res, url, internal.url));
    site = await startSite((req, res, url) => {
      switch (url.pathname) {
        case '/cloaked.mp4':
          // A real video for the app's checker, a redirect inside the network for everyone else.
          if (isAppChecker(req)) return serveMedia(res, url, site.url);
          res.writeHead(302, { location: `${internal.url}/talk.mp4` }).end();
          return;
        case '/master.m3u8':
          res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
          res.end(masterPlaylist(`${site.url}/variant.m3u8`));
          return;
        case '/variant.m3u8':
          // The variant manifest itself moves inside the network once yt-dlp asks for it.
          res.writeHead(302, { location: `${internal.url}/media.m3u8` }).end();
          return;
        case '/foreign-segments.m3u8':
          res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
          res.end(mediaPlaylist(internal.url));
          return;
        default:
          return serveMedia(res, url, site.url);
      }
    });
    allowSite = { allowHosts: [`127.0.0.1:${new URL(site.url).port}`] };
  });
  afterEach(() => {
    internal.requests.length = 0;
  });
  afterAll(async () => {
    await site?.close();
    await internal?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('still downloads an HLS stream whose manifest and segments are on the allowed host', async () => {
    const { file } = await downloadVideo(`${site.url}/media.m3u8`, join(work, 'ok'), allowSite);
    const info = await probeMedia(file);
    expect(info.width).toBe(320);
    expect(info.durationMs).toBeGreaterThan(2000);
    expect(segments.length).toBeGreaterThan(1);
    for (let i = 0; i < segments.length; i++) expect(site.requests).toContain(`/seg${i}.ts`);
  });

  it('refuses a redirect into the network that only yt-dlp is shown', async () => {
    expect(await codeOf(fetchVideoMetadata(`${site.url}/cloaked.mp4`, allowSite))).toBe(
      'PRIVATE_ADDRESS',
    );
    expect(
      await codeOf(downloadVideo(`${site.url}/cloaked.mp4`, join(work, 'redirect'), allowSite)),
    ).toBe('PRIVATE_ADDRESS');
    expect(internal.requests).toEqual([]);
  });

  it('refuses a variant manifest that moves into the network', async () => {
    expect(
      await codeOf(downloadVideo(`${site.url}/master.m3u8`, join(work, 'manifest'), allowSite)),
    ).toBe('PRIVATE_ADDRESS');
    expect(internal.requests).toEqual([]);
  });

  it('refuses HLS segments on a private host', async () => {
    expect(
      await codeOf(
        downloadVideo(`${site.url}/foreign-segments.m3u8`, join(work, 'segments'), allowSite),
      ),
    ).toBe('PRIVATE_ADDRESS');
    expect(internal.requests).toEqual([]);
  });

  it('checks links to known platforms too: a platform host resolving inside is refused', async () => {
    // The platform's name resolves to loopback (a poisoned resolver or hosts file): yt-dlp's
    // connection must be refused like any other, not trusted because the link looks familiar.
    const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(
      await codeOf(
        fetchVideoMetadata('https://www.youtube.com/watch?v=dQw4w9WgXcQ', {
          lookup,
          allowHosts: [],
        }),
      ),
    ).toBe('PRIVATE_ADDRESS');
  });
});
