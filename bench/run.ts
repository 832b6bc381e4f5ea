/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line, e.g.
 * `npm run bench -- stomp moments`) one after another and prints their numbers. Benchmarks hold
 * the speed and memory targets; the test suite never times anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => !wanted.length || wanted.some((w) => name.startsWith(w)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const started = performance.now();
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
      default: () => Promise<void>;
    };
    await mod.default();
  } catch (error) {
    failed++;
    console.error(`${file} failed:`, error);
  }
  console.log(`(${file}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit(failed ? 1 : 0);
