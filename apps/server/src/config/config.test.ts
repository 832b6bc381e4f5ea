import { fasterWhisperOptionsFromEnv } from '@moments/ai/asr';
import { describe, expect, it } from 'vitest';
import { prepareDataDir } from './data-dir.js';
import { ConfigError, REPO_ROOT, loadConfig, speechSettings } from './index.js';

describe('configuration', () => {
  it('gives the embedded one-machine defaults with no variables set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      STORAGE_DRIVER: 'local',
      REALTIME_BUS: 'memory',
      ROLES: ['api', 'worker'],
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toMatch(/data$/);
  });

  it('names every bad variable in one message', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', ROLES: 'api,cron', STORAGE_DRIVER: 'ftp', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'ROLES', 'STORAGE_DRIVER', 'LOG_LEVEL'])
        expect(message).toContain(name);
    }
  });

  it('configures the speech engine from the checked values, refusing a bad one at start', () => {
    expect(() => loadConfig({ ASR_BEAM_SIZE: '0', ASR_PROCESS_MAX_MB: 'lots' })).toThrow(
      /ASR_BEAM_SIZE[\s\S]*ASR_PROCESS_MAX_MB/,
    );
    const engine = fasterWhisperOptionsFromEnv(
      speechSettings(
        loadConfig({
          ASR_THREADS: '3',
          ASR_BEAM_SIZE: '4',
          ASR_PYTHON: '/opt/whisper/bin/python',
          ASR_DEVICE: 'cuda',
        }),
      ),
    );
    expect(engine).toMatchObject({
      threads: 3,
      beamSize: 4,
      pythonPath: '/opt/whisper/bin/python',
      device: 'cuda',
      computeType: 'float16',
    });
  });

  it('requires a bucket for S3 storage and parses lists', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    const config = loadConfig({
      ROLES: 'worker',
      APP_SECRET: 'a'.repeat(32),
      PUBLIC_URL: 'https://moments.example.org',
      MEDIA_FETCH_ALLOW_HOSTS: ' media.lan , 10.0.0.2:8080 ',
    });
    expect(config.ROLES).toEqual(['worker']);
    expect(config.MEDIA_FETCH_ALLOW_HOSTS).toEqual(['media.lan', '10.0.0.2:8080']);
  });

  it('asks split roles for one shared secret and workers for the address mail links open', () => {
    const secret = { APP_SECRET: 'a'.repeat(32) };
    const publicUrl = { PUBLIC_URL: 'https://moments.example.org' };
    expect(() => loadConfig({ ROLES: 'api' })).toThrow(/APP_SECRET: required[^]*openssl rand/);
    expect(() => loadConfig({ ROLES: 'api', ...secret })).not.toThrow();
    expect(() => loadConfig({ ROLES: 'worker', ...secret })).toThrow(/PUBLIC_URL: required/);
    expect(() => loadConfig({ ROLES: 'worker', ...secret, ...publicUrl })).not.toThrow();
    // One process with both roles keeps its secret in DATA_DIR.
    expect(() => loadConfig({})).not.toThrow();
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_SECRET_ACCESS_KEY/);
  });

  it('refuses several API processes where they could not share the database or realtime', () => {
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(/API_PROCESSES.*DATABASE_URL/s);
    const url = 'postgres://moments@db/moments';
    expect(() => loadConfig({ API_PROCESSES: '2', DATABASE_URL: url })).toThrow(/REALTIME_BUS/);
    const config = loadConfig({ API_PROCESSES: '2', DATABASE_URL: url, REALTIME_BUS: 'redis' });
    expect(config.API_PROCESSES).toBe(2);
    expect(loadConfig({}).API_PROCESSES).toBe(1);
  });

  it('refuses a DATA_DIR it cannot write, with the reason, instead of hanging', async () => {
    const refused = prepareDataDir('/proc/moments-data');
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      /DATA_DIR "\/proc\/moments-data" is not a writable folder/,
    );
  });

  it('decides BILLING so money never depends on a silent default', () => {
    expect(loadConfig({}).BILLING).toBe('test');
    expect(
      loadConfig({ BILLING: 'off', HOST: '0.0.0.0', PUBLIC_URL: 'https://moments.example' })
        .BILLING,
    ).toBe('off');
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/BILLING: must be set .*HOST=0\.0\.0\.0/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required for BILLING=stripe/,
    );
    expect(() => loadConfig({ BILLING: 'stripe', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(
      /STRIPE_SECRET_KEY: required/,
    );
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).BILLING,
    ).toBe('stripe');
  });

  it('npm start exits naming the missing Stripe secret, and refuses a public address without BILLING', async () => {
    const { spawnSync } = await import('node:child_process');
    const start = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: '/tmp/moments-config-test', ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const stripe = start({ STRIPE_SECRET_KEY: 'sk_test_only' });
    expect(stripe.status).toBe(2);
    expect(stripe.stderr).toContain('STRIPE_WEBHOOK_SECRET');
    const open = start({ HOST: '0.0.0.0' });
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/BILLING: must be set/);
  }, 120_000);
});
