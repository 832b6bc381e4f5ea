/** Measuring helpers of the speed bench: wall time, peak memory of the process tree, load. */
import fs from 'node:fs/promises';
import os from 'node:os';

export const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
export const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/** Resident memory of this process and every descendant (ffmpeg, whisper), summed. */
async function treeRssBytes(): Promise<number> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p: number | undefined = pid; p; p = parents.get(p)) {
      if (p === process.pid) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/** Runs `work`, returning its result, wall seconds and the peak tree RSS sampled every 200 ms. */
export async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; sec: number; peak: number }> {
  let peak = await treeRssBytes();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRssBytes());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const started = performance.now();
  try {
    const value = await work();
    return { value, sec: (performance.now() - started) / 1000, peak };
  } finally {
    sampling = false;
    await sampler;
  }
}
