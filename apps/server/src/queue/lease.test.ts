import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging.js';
import { Leases, RunSuperseded, type LeasedRows } from './lease.js';

interface Row {
  id: string;
  progress: number;
  stage?: string;
  runToken: string | null;
  startedAt: Date | null;
  heartbeatAt: Date | null;
}
type Patch = Partial<Omit<Row, 'id'>>;

/** Rows in memory, with the repositories' rule: a write needs the row's current run token. */
function memoryRows(rows: Row[]): LeasedRows<Row, Patch> {
  const find = (id: string) => rows.find((row) => row.id === id);
  return {
    async claimRun(id, runToken, staleBefore) {
      const row = find(id);
      if (!row || row.runToken !== runToken) return undefined;
      if (row.startedAt && row.heartbeatAt && row.heartbeatAt >= staleBefore) return undefined;
      Object.assign(row, { startedAt: new Date(), heartbeatAt: new Date() });
      return { ...row };
    },
    async updateRun(id, runToken, patch) {
      const row = find(id);
      if (!row || row.runToken !== runToken) return undefined;
      Object.assign(row, patch);
      return { ...row };
    },
    async findOrphaned(staleBefore) {
      return rows.filter(
        (row) => row.startedAt && row.heartbeatAt && row.heartbeatAt < staleBefore,
      );
    },
  };
}

function leasesOver(rows: Row[], resumed: Array<[string, string]>, heartbeatMs = 60_000) {
  return new Leases<Row, Patch>({
    name: 'task',
    rows: memoryRows(rows),
    leaseMs: 1_000,
    heartbeatMs,
    resume: async (id, runToken) => void resumed.push([id, runToken]),
    log: silentLogger,
  });
}

const longAgo = () => new Date(Date.now() - 60_000);

describe('leases', () => {
  it('resumes a run whose worker went silent once, under a new token the old run cannot write with', async () => {
    const rows: Row[] = [
      { id: 'dead', progress: 40, runToken: 'old', startedAt: longAgo(), heartbeatAt: longAgo() },
      {
        id: 'alive',
        progress: 10,
        runToken: 'live',
        startedAt: new Date(),
        heartbeatAt: new Date(),
      },
    ];
    const resumed: Array<[string, string]> = [];
    const leases = leasesOver(rows, resumed);

    expect(await leases.resumeOrphans()).toBe(1);
    expect(resumed.map(([id]) => id)).toEqual(['dead']);
    const [, newToken] = resumed[0]!;
    expect(newToken).not.toBe('old');
    expect(rows[0]).toMatchObject({ runToken: newToken, startedAt: null });

    // The dead worker's run, should it still be going somewhere, has lost its lease.
    const stale = leases.hold({ ...rows[0]!, runToken: 'old' }, 'old', { onChange: () => {} });
    await expect(stale.save({ progress: 90 })).rejects.toBeInstanceOf(RunSuperseded);
    await leases.release('dead', stale);
    expect(rows[0]!.progress).toBe(40);

    // The resumed job claims it; a second pass of the reaper finds nothing more to do.
    expect(await leases.claim('dead', newToken)).toMatchObject({ id: 'dead' });
    expect(await leases.resumeOrphans()).toBe(0);
  });

  it('stops a run whose heart-beat finds the lease taken over', async () => {
    const rows: Row[] = [
      { id: 'task', progress: 0, runToken: 'mine', startedAt: null, heartbeatAt: null },
    ];
    const leases = leasesOver(rows, [], 20);
    const initial = await leases.claim('task', 'mine');
    const run = leases.hold(initial!, 'mine', { onChange: () => {} });
    rows[0]!.runToken = 'someone-else';
    await new Promise((resolve) => run.controller.signal.addEventListener('abort', resolve));
    expect(run.controller.signal.reason).toBeInstanceOf(RunSuperseded);
    await leases.release('task', run);
  });

  it('tells every new stage at once, and progress at most about once a second', async () => {
    const rows: Row[] = [
      { id: 'task', progress: 0, runToken: 'live', startedAt: new Date(), heartbeatAt: new Date() },
    ];
    const leases = leasesOver(rows, []);
    const told: Array<[string | undefined, number]> = [];
    const run = leases.hold({ ...rows[0]! }, 'live', {
      onChange: (row) => void told.push([row.stage, row.progress]),
    });
    // Within one second: three stages and two progress steps.
    await run.save({ stage: 'downloading', progress: 1 });
    await run.save({ stage: 'probing', progress: 2 });
    await run.save({ progress: 3 });
    await run.save({ stage: 'transcribing', progress: 5 });
    await run.save({ progress: 6 });
    expect(told).toEqual([
      ['downloading', 1],
      ['probing', 2],
      ['transcribing', 5],
    ]);
    await leases.release('task', run);
  });
});
