import { describe, expect, it } from 'vitest';
import { prepareDataDir } from './data-dir.js';
import { ConfigError, loadConfig } from './index.js';

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

  it('requires a bucket for S3 storage and parses lists', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    const config = loadConfig({
      ROLES: 'worker',
      MEDIA_FETCH_ALLOW_HOSTS: ' media.lan , 10.0.0.2:8080 ',
    });
    expect(config.ROLES).toEqual(['worker']);
    expect(config.MEDIA_FETCH_ALLOW_HOSTS).toEqual(['media.lan', '10.0.0.2:8080']);
  });

  it('refuses a DATA_DIR it cannot write, with the reason, instead of hanging (issue 14 #20)', async () => {
    const refused = prepareDataDir('/proc/moments-data');
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      /DATA_DIR "\/proc\/moments-data" is not a writable folder/,
    );
  });
});
