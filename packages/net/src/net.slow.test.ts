import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkError } from './errors.js';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { assertPublicUrl, blockedAddressReason, resolveMediaUrl, type LookupAll } from './index.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LinkError);
  return (error as LinkError).code;
}

/** A resolver with fixed answers, so no test depends on (or sends traffic to) real DNS. */
function fakeDns(answers: Record<string, string[]>): LookupAll {
  return async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('blockedAddressReason', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
    '[::1]',
  ])('%s is refused', (address) => {
    expect(blockedAddressReason(address)).toBeDefined();
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4007:80e::200e',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});

describe('assertPublicUrl', () => {
  const lookup = fakeDns({
    'video.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'nas.lan': ['192.168.1.20'],
  });

  it('accepts a host whose every address is public', async () => {
    const { addresses } = await assertPublicUrl('https://video.example.com/a.mp4', {
      lookup,
      allowHosts: [],
    });
    expect(addresses).toHaveLength(2);
  });

  it('refuses a host with any private address, and private IP literals', async () => {
    for (const link of [
      'https://sneaky.example.com/a.mp4',
      'http://metadata.example.com/latest/meta-data/',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
      'http://0.0.0.0/',
      'http://2130706433/', // 127.0.0.1 written as one number
      'http://0x7f.1/',
    ]) {
      expect(await codeOf(assertPublicUrl(link, { lookup, allowHosts: [] })), link).toBe(
        'PRIVATE_ADDRESS',
      );
    }
  });

  it('refuses other schemes and unknown hosts', async () => {
    expect(await codeOf(assertPublicUrl('file:///etc/passwd', { lookup }))).toBe('INVALID_URL');
    expect(await codeOf(assertPublicUrl('gopher://video.example.com/', { lookup }))).toBe(
      'INVALID_URL',
    );
    expect(await codeOf(assertPublicUrl('not a url', { lookup }))).toBe('INVALID_URL');
    expect(await codeOf(assertPublicUrl('https://nowhere.invalid/', { lookup }))).toBe(
      'LINK_UNREACHABLE',
    );
  });

  it('lets the operator allow a host, a host:port or an address', async () => {
    await expect(
      assertPublicUrl('http://nas.lan/movie.mp4', { lookup, allowHosts: ['nas.lan'] }),
    ).resolves.toBeDefined();
    await expect(
      assertPublicUrl('http://nas.lan:8096/movie.mp4', { lookup, allowHosts: ['nas.lan:8096'] }),
    ).resolves.toBeDefined();
    expect(
      await codeOf(
        assertPublicUrl('http://nas.lan:9999/movie.mp4', { lookup, allowHosts: ['nas.lan:8096'] }),
      ),
    ).toBe('PRIVATE_ADDRESS');
    await expect(
      assertPublicUrl('http://nas.lan/movie.mp4', { lookup, allowHosts: ['192.168.1.20'] }),
    ).resolves.toBeDefined();
  });

  it('matches allow-list entries whatever their case or spacing', async () => {
    await expect(
      assertPublicUrl('http://nas.lan:8096/movie.mp4', { lookup, allowHosts: [' NAS.lan:8096 '] }),
    ).resolves.toBeDefined();
  });
});

describe('resolveMediaUrl', () => {
  let work: string;
  let server: ServedFiles;
  let port: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'moments-net-'));
    await makeTestVideo(join(work, 'talk.mp4'), { durationSec: 1, width: 64, height: 48 });
    await writeFile(
      join(work, 'player.html'),
      '<html><body><video src="/talk.mp4" controls></video></body></html>',
    );
    await writeFile(join(work, 'notes.txt'), 'plain text');
    server = await serveFiles(work);
    port = new URL(server.url).port;
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  const allowLocal = () => ({ allowHosts: [`127.0.0.1:${port}`] });

  it('refuses the local server unless the operator allowed it', async () => {
    expect(await codeOf(resolveMediaUrl(`${server.url}/talk.mp4`, { allowHosts: [] }))).toBe(
      'PRIVATE_ADDRESS',
    );
    expect(server.requests).not.toContain('/talk.mp4');
  });

  it('tells a media file, with its type and size', async () => {
    const resolved = await resolveMediaUrl(`${server.url}/talk.mp4`, allowLocal());
    expect(resolved).toMatchObject({ kind: 'media', source: 'direct', status: 200 });
    expect(resolved.contentType).toBe('video/mp4');
    expect(resolved.contentLength).toBeGreaterThan(1000);
  });

  it('follows redirects and reports the final address', async () => {
    const start = `${server.url}/__redirect?to=${encodeURIComponent('/__redirect?to=/talk.mp4')}`;
    const resolved = await resolveMediaUrl(start, allowLocal());
    expect(resolved.finalUrl).toBe(`${server.url}/talk.mp4`);
    expect(resolved.redirects).toHaveLength(2);
  });

  it('checks every redirect hop against the private-address rules', async () => {
    for (const target of [
      `http://localhost:${port}/talk.mp4`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
    ]) {
      const link = `${server.url}/__redirect?to=${encodeURIComponent(target)}`;
      expect(await codeOf(resolveMediaUrl(link, allowLocal())), target).toBe('PRIVATE_ADDRESS');
    }
  });

  it('gives up after too many redirects', async () => {
    let link = '/talk.mp4';
    for (let hop = 0; hop < 7; hop++) link = `/__redirect?to=${encodeURIComponent(link)}`;
    expect(await codeOf(resolveMediaUrl(`${server.url}${link}`, allowLocal()))).toBe(
      'LINK_UNREACHABLE',
    );
  });

  it('reports 404 as LINK_NOT_FOUND and other failures as LINK_UNREACHABLE', async () => {
    expect(await codeOf(resolveMediaUrl(`${server.url}/gone.mp4`, allowLocal()))).toBe(
      'LINK_NOT_FOUND',
    );
    expect(await codeOf(resolveMediaUrl(`${server.url}/__status/503`, allowLocal()))).toBe(
      'LINK_UNREACHABLE',
    );
  });

  it('refuses a page or file without video, and accepts a page that embeds one', async () => {
    expect(await codeOf(resolveMediaUrl(`${server.url}/__page`, allowLocal()))).toBe(
      'LINK_NOT_MEDIA',
    );
    expect(await codeOf(resolveMediaUrl(`${server.url}/notes.txt`, allowLocal()))).toBe(
      'LINK_NOT_MEDIA',
    );
    expect((await resolveMediaUrl(`${server.url}/player.html`, allowLocal())).kind).toBe('html');
  });

  it('hands known platforms to yt-dlp without fetching them, minus playlist params', async () => {
    const resolved = await resolveMediaUrl(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&index=2',
    );
    expect(resolved).toMatchObject({
      kind: 'platform',
      source: 'youtube',
      finalUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
  });

  it('re-checks the address when connecting (DNS rebinding)', async () => {
    let calls = 0;
    // First answer public (passes the check), then loopback when the socket connects.
    const rebinding: LookupAll = async () => [
      { address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 },
    ];
    expect(
      await codeOf(
        resolveMediaUrl(`http://rebind.example.com:${port}/talk.mp4`, {
          lookup: rebinding,
          allowHosts: [],
        }),
      ),
    ).toBe('PRIVATE_ADDRESS');
    expect(calls).toBe(2);
  });
});
