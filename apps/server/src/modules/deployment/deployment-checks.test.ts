import { describe, expect, it } from 'vitest';
import {
  formatQueueOverview,
  staleActives,
  type QueueView,
  type WorkerProcess,
} from '../../queue/queue-overview.js';
import { storageProblem } from '../../storage/storage-check.js';
import { secretFingerprint, settingsConflicts, type PeerProcess } from './deployment-checks.js';

const self = {
  roles: ['worker'],
  queues: ['render'],
  bus: 'redis',
  publicUrl: 'https://moments.example.org',
  secretFingerprint: secretFingerprint('s'.repeat(32)),
};
const api: PeerProcess = { ...self, roles: ['api'], queues: [], hostname: 'api-1', pid: 41 };

describe('settings every process on one database shares', () => {
  it('fingerprints equal secrets equally, without showing them', () => {
    expect(secretFingerprint('s'.repeat(32))).toBe(self.secretFingerprint);
    expect(secretFingerprint('t'.repeat(32))).not.toBe(self.secretFingerprint);
    expect(self.secretFingerprint).not.toContain('sss');
  });

  it('agrees with peers that have the same settings, and with none', () => {
    expect(settingsConflicts(self, [api])).toEqual([]);
    expect(settingsConflicts(self, [])).toEqual([]);
  });

  it('names each differing setting once, the peer that has the other value, and the fix', () => {
    const other = { ...api, secretFingerprint: secretFingerprint('t'.repeat(32)), bus: 'postgres' };
    const problems = settingsConflicts(self, [other, { ...other, pid: 42 }]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/APP_SECRET: differs .* api on api-1 pid 41.*same APP_SECRET/);
    expect(problems[1]).toMatch(/REALTIME_BUS: redis here, postgres on .*same REALTIME_BUS/);
    expect(settingsConflicts(self, [{ ...api, publicUrl: 'http://10.0.0.5:8080' }])[0]).toMatch(
      /PUBLIC_URL: https:\/\/moments.example.org here, http:\/\/10.0.0.5:8080/,
    );
  });
});

describe('the operator view of workers and jobs', () => {
  const startedAt = new Date(Date.now() - 60_000);
  const asrWorker: WorkerProcess = {
    hostname: 'gpu-1',
    pid: 7,
    roles: ['worker'],
    queues: ['asr'],
    startedAt,
  };
  const view = (kind: QueueView['kind'], takenBy: QueueView['takenBy']): QueueView => ({
    kind,
    takenBy,
    policy: { attempts: 1, timeoutSeconds: 60, concurrency: 1, every: null, background: false },
    scheduled: null,
    counts: { created: 1, retry: 0, active: 1, completed: 0, cancelled: 0, failed: 0 },
    failures: [],
    oldestWaitingSeconds: 300,
    actives: [
      { id: 'before-the-worker', startedOn: new Date(startedAt.getTime() - 1000) },
      { id: 'after-it', startedOn: new Date(startedAt.getTime() + 1000) },
    ],
    resumes: 2,
  });

  it('counts an active job as stale when every worker of its queue started after it', () => {
    const stale = staleActives(view('task-run', 'asr'), [asrWorker]);
    expect(stale.map((job) => job.id)).toEqual(['before-the-worker']);
    expect(staleActives(view('export-render', 'render'), [asrWorker])).toHaveLength(2);
  });

  it('names the queue with no worker, waiting ages, resumes and how to end stale jobs', () => {
    const text = formatQueueOverview(
      [view('task-run', 'asr'), view('export-render', 'render')],
      [asrWorker],
    );
    expect(text).toMatch(/asr: gpu-1 pid 7 \(up 60s\)/);
    expect(text).toMatch(/render: NO WORKER: export-render wait until one starts/);
    expect(text).toMatch(
      /oldest waiting 5 min; resumed runs 2; 1 active job\(s\) whose worker is gone \[before-the-worker\]: end them with npm run jobs -- --end-stale/,
    );
  });
});

describe('storage failures at start', () => {
  const config = {
    STORAGE_DRIVER: 's3' as const,
    S3_BUCKET: 'moments',
    S3_ENDPOINT: 'http://s3.lan:9000',
    S3_REGION: 'eu-west-1',
    DATA_DIR: '/var/lib/moments',
  };
  const named = (name: string) => Object.assign(new Error(name), { name });

  it('say which setting fixes them', () => {
    expect(storageProblem(named('CredentialsProviderError'), config)).toMatch(
      /^S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: no S3 credentials/,
    );
    expect(storageProblem(named('NoSuchBucket'), config)).toMatch(
      /^S3_BUCKET: the bucket moments at http:\/\/s3.lan:9000 \(region eu-west-1\) does not exist: create it \(e.g. `aws s3 mb s3:\/\/moments` --endpoint-url http:\/\/s3.lan:9000\)/,
    );
    expect(storageProblem(named('InvalidAccessKeyId'), config)).toMatch(/refused the credentials/);
    expect(storageProblem(new Error('EACCES'), { ...config, STORAGE_DRIVER: 'local' })).toMatch(
      /^DATA_DIR: files cannot be written .*\/var\/lib\/moments\/files/,
    );
  });
});
