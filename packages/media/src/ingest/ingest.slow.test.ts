import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkError } from '@moments/net';
import { MediaError } from '../errors/index.js';
import { probeMedia } from '../probe/index.js';
import { makeTestVideo, serveFiles, type ServedFiles } from '../../test/support/index.js';
import { downloadVideo, fetchVideoMetadata, hasYtDlp, ytDlpPath } from './index.js';

const ytDlpFound = hasYtDlp();
if (!ytDlpFound) {
  console.log(
    `yt-dlp not found at ${ytDlpPath()}: run scripts/setup.sh or set YTDLP_PATH (skipping ingest tests)`,
  );
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

describe.skipIf(!ytDlpFound)('yt-dlp ingest of direct links', () => {
  let work: string;
  let server: ServedFiles;
  let allowLocal: { allowHosts: string[] };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'moments-ingest-'));
    const site = join(work, 'site');
    await rm(site, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(site));
    await makeTestVideo(join(site, 'Keynote%20Talk.mp4'.replace('%20', ' ')), {
      durationSec: 2,
      width: 320,
      height: 180,
    });
    server = await serveFiles(site);
    const port = new URL(server.url).port;
    allowLocal = { allowHosts: [`127.0.0.1:${port}`] };
    // A page whose video lives on a host the operator did not allow.
    await writeFile(
      join(site, 'sneaky.html'),
      `<html><body><video src="http://localhost:${port}/Keynote%20Talk.mp4"></video></body></html>`,
    );
  });
  afterAll(async () => {
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('reads the metadata of a direct file', async () => {
    const metadata = await fetchVideoMetadata(`${server.url}/Keynote%20Talk.mp4`, allowLocal);
    expect(metadata.title).toBe('Keynote Talk');
    expect(metadata.videoPlatform).toBe('direct');
    expect(metadata.webpageUrl).toBe(`${server.url}/Keynote%20Talk.mp4`);
    expect(metadata.publishedAt).toBeGreaterThan(1_600_000_000);
  });

  it('downloads a direct file with progress, and probes its duration', async () => {
    const fractions: number[] = [];
    const outDir = join(work, 'task-1');
    const { file, metadata } = await downloadVideo(`${server.url}/Keynote%20Talk.mp4`, outDir, {
      ...allowLocal,
      onProgress: (fraction) => fractions.push(fraction),
    });
    expect(file).toBe(join(outDir, 'source.mp4'));
    const info = await probeMedia(file);
    expect(info).toMatchObject({ width: 320, height: 180, hasAudio: true });
    expect(metadata.durationMs).toBe(info.durationMs);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions.length).toBeGreaterThan(1);
    expect(await readdir(outDir)).toEqual(['source.mp4']); // no info json or parts left behind
  });

  it('gives clear codes for a 404 link and a page without video', async () => {
    expect(await codeOf(fetchVideoMetadata(`${server.url}/missing.mp4`, allowLocal))).toBe(
      'LINK_NOT_FOUND',
    );
    expect(await codeOf(downloadVideo(`${server.url}/__page`, join(work, 'x'), allowLocal))).toBe(
      'LINK_NOT_MEDIA',
    );
  });

  it('refuses the local server when the operator did not allow it', async () => {
    expect(
      await codeOf(fetchVideoMetadata(`${server.url}/Keynote%20Talk.mp4`, { allowHosts: [] })),
    ).toBe('PRIVATE_ADDRESS');
  });

  it('refuses a page whose video sits on a private host', async () => {
    expect(
      await codeOf(downloadVideo(`${server.url}/sneaky.html`, join(work, 'y'), allowLocal)),
    ).toBe('PRIVATE_ADDRESS');
  });

  it('can be cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await codeOf(
        downloadVideo(`${server.url}/Keynote%20Talk.mp4`, join(work, 'z'), {
          ...allowLocal,
          signal: controller.signal,
        }),
      ),
    ).toBe('ABORTED');
  });
});
