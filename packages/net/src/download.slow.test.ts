import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkError } from './errors.js';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import { downloadPublicFile } from './index.js';

// A link page's preview image is fetched by the server, never hot-linked: through the same guard
// as every link (private addresses refused at every hop), size-capped, only images kept.
let work: string;
let served: ServedFiles;
const IMAGE = /^image\//;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'moments-download-'));
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180',
    '-frames:v',
    '1',
    join(work, 'og.png'),
  ]);
  served = await serveFiles(work);
});
afterAll(async () => {
  await served?.close();
  await rm(work, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LinkError);
  return (error as LinkError).code;
}

describe('downloadPublicFile', () => {
  it('refuses the machine itself unless the operator allowed the host', async () => {
    const out = join(work, 'refused.png');
    expect(
      await codeOf(
        downloadPublicFile(`${served.url}/og.png`, out, { maxBytes: 1e6, allowHosts: [] }),
      ),
    ).toBe('PRIVATE_ADDRESS');
    expect(existsSync(out)).toBe(false);
    expect(served.requests).not.toContain('/og.png');
  });

  it('downloads an allowed image, and follows no redirect into the private network', async () => {
    const out = join(work, 'fetched.png');
    const got = await downloadPublicFile(`${served.url}/og.png`, out, {
      maxBytes: 1e6,
      allowHosts: ['127.0.0.1'],
      contentType: IMAGE,
    });
    expect(got.contentType).toBe('image/png');
    expect((await stat(out)).size).toBe(got.bytes);

    const viaRedirect = `${served.url}/__redirect?to=${encodeURIComponent('http://10.1.2.3/og.png')}`;
    expect(
      await codeOf(
        downloadPublicFile(viaRedirect, join(work, 'redirected.png'), {
          maxBytes: 1e6,
          allowHosts: ['127.0.0.1'],
        }),
      ),
    ).toBe('PRIVATE_ADDRESS');
  });

  it('refuses a file over the size cap and keeps nothing of it', async () => {
    const out = join(work, 'big.png');
    expect(
      await codeOf(
        downloadPublicFile(`${served.url}/og.png`, out, {
          maxBytes: 100,
          allowHosts: ['127.0.0.1'],
        }),
      ),
    ).toBe('FILE_TOO_LARGE');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an answer of another type (a page instead of an image)', async () => {
    expect(
      await codeOf(
        downloadPublicFile(`${served.url}/__page`, join(work, 'page.png'), {
          maxBytes: 1e6,
          allowHosts: ['127.0.0.1'],
          contentType: IMAGE,
        }),
      ),
    ).toBe('LINK_NOT_MEDIA');
  });
});
