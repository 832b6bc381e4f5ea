import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMediaCache } from './media-cache.js';

describe('the made-media cache', () => {
  let dir: string;
  let made = 0;
  const make = (out: string, bytes: string) => async () => {
    made++;
    await writeFile(out, bytes);
    return { spans: [{ startMs: 0, endMs: bytes.length }] };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'moments-media-cache-'));
    process.env.MOMENTS_TEST_MEDIA_CACHE_DIR = join(dir, 'cache');
  });
  afterAll(async () => {
    delete process.env.MOMENTS_TEST_MEDIA_CACHE_DIR;
    await rm(dir, { recursive: true, force: true });
  });

  it('makes a recipe once and copies it, with its result, on the next call', async () => {
    const recipe = { maker: import.meta.url, args: ['speech', 'hello there'] };
    const first = await withMediaCache(recipe, join(dir, 'a.wav'), make(join(dir, 'a.wav'), 'AAA'));
    const second = await withMediaCache(
      recipe,
      join(dir, 'b.wav'),
      make(join(dir, 'b.wav'), 'BBB'),
    );
    expect(made).toBe(1);
    expect(await readFile(join(dir, 'b.wav'), 'utf8')).toBe('AAA');
    expect(second).toEqual(first);
  });

  it('makes it again when an argument, an input file or the container differs', async () => {
    const input = join(dir, 'voice.flac');
    await writeFile(input, 'one recording');
    const recipe = { maker: import.meta.url, args: ['video', { durationSec: 2 }], inputs: [input] };
    made = 0;
    await withMediaCache(recipe, join(dir, 'c.mp4'), make(join(dir, 'c.mp4'), 'C1'));
    await withMediaCache(recipe, join(dir, 'd.webm'), make(join(dir, 'd.webm'), 'C2'));
    await withMediaCache(
      { ...recipe, args: ['video', { durationSec: 3 }] },
      join(dir, 'e.mp4'),
      make(join(dir, 'e.mp4'), 'C3'),
    );
    await writeFile(input, 'another recording');
    await withMediaCache(recipe, join(dir, 'f.mp4'), make(join(dir, 'f.mp4'), 'C4'));
    expect(made).toBe(4);
    expect(await readFile(join(dir, 'f.mp4'), 'utf8')).toBe('C4');
  });

  it('makes everything each time when turned off', async () => {
    process.env.MOMENTS_TEST_MEDIA_CACHE = 'off';
    try {
      const recipe = { maker: import.meta.url, args: ['speech', 'off'] };
      made = 0;
      await withMediaCache(recipe, join(dir, 'g.wav'), make(join(dir, 'g.wav'), 'G'));
      await withMediaCache(recipe, join(dir, 'h.wav'), make(join(dir, 'h.wav'), 'H'));
      expect(made).toBe(2);
      expect(await readFile(join(dir, 'h.wav'), 'utf8')).toBe('H');
    } finally {
      delete process.env.MOMENTS_TEST_MEDIA_CACHE;
    }
  });
});
