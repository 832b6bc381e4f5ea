/**
 * The media tests make (speech, test-pattern videos, footage) is the same on every run for the
 * same recipe, and making it again is most of some test files' time. A made file is kept under
 * node_modules/.cache/moments-test-media by a hash of its recipe (the arguments, the bytes of
 * every input file, and the source of the module that makes it, so a changed generator makes
 * new files) and copied out on the next run. A fresh clone, CI included, makes everything once.
 * MOMENTS_TEST_MEDIA_CACHE=off turns it off; MOMENTS_TEST_MEDIA_CACHE_DIR keeps it elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MediaRecipe {
  /** The URL of the module whose code makes the file (its source is part of the key). */
  maker: string;
  /** Everything else that decides the bytes: the function, its arguments. */
  args: unknown;
  /** Files read while making it (their bytes are part of the key). */
  inputs?: readonly (string | undefined)[];
}

/** The repository's node_modules/.cache (this file sits in packages/media/test/support). */
const DEFAULT_CACHE_DIR = fileURLToPath(
  new URL('../../../../node_modules/.cache/moments-test-media', import.meta.url),
);

const sourceHashes = new Map<string, Promise<string>>();

function hashOfSource(moduleUrl: string): Promise<string> {
  let hash = sourceHashes.get(moduleUrl);
  if (!hash) {
    hash = readFile(fileURLToPath(moduleUrl)).then((source) =>
      createHash('sha256').update(source).digest('hex'),
    );
    sourceHashes.set(moduleUrl, hash);
  }
  return hash;
}

async function keyOf(recipe: MediaRecipe, out: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await hashOfSource(recipe.maker));
  hash.update(JSON.stringify(recipe.args) ?? '');
  hash.update(extname(out).toLowerCase());
  for (const input of recipe.inputs ?? []) {
    if (input) hash.update(await readFile(input));
  }
  return hash.digest('hex');
}

/**
 * Writes `out` by copying a cached file of the same recipe, or by `make` (whose JSON result is
 * kept beside the file and returned on later runs too).
 */
export async function withMediaCache<T>(
  recipe: MediaRecipe,
  out: string,
  make: () => Promise<T>,
): Promise<T> {
  if (process.env.MOMENTS_TEST_MEDIA_CACHE === 'off') return make();
  const cacheDir = process.env.MOMENTS_TEST_MEDIA_CACHE_DIR || DEFAULT_CACHE_DIR;
  const key = await keyOf(recipe, out);
  const file = join(cacheDir, key + extname(out));
  const meta = join(cacheDir, `${key}.json`);
  try {
    const kept = JSON.parse(await readFile(meta, 'utf8')) as { result: T };
    await copyFile(file, out);
    return kept.result;
  } catch {
    // Not made yet (or half written by a run that died): make it and keep it.
  }
  const result = await make();
  await mkdir(cacheDir, { recursive: true });
  // Another test file may make the same recipe at once: each writes its own temporary names and
  // renames them into place, the file before the note that says it is complete.
  const tmp = `.${randomBytes(6).toString('hex')}`;
  try {
    await copyFile(out, file + tmp);
    await rename(file + tmp, file);
    await writeFile(meta + tmp, JSON.stringify({ result }));
    await rename(meta + tmp, meta);
  } catch {
    // A full or read-only disk only costs the next run the time to make it again.
    await rm(file + tmp, { force: true });
    await rm(meta + tmp, { force: true });
  }
  return result;
}
