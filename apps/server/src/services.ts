import path from 'node:path';
import type { AppConfig } from './config/index.js';
import { openDatabase, type Database } from './db/client.js';
import { AuthService } from './modules/auth/auth.service.js';
import { UsersRepository } from './repositories/users.repository.js';

/** Everything the HTTP layer and the workers share, built once per process from the config. */
export interface Services {
  config: AppConfig;
  database: Database;
  auth: AuthService;
  close(): Promise<void>;
}

export async function createServices(config: AppConfig): Promise<Services> {
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL }
      : { dataDir: path.join(config.DATA_DIR, 'pglite') },
  );
  const users = new UsersRepository(database.db);
  const auth = new AuthService(users, config.SESSION_TTL_DAYS);
  return {
    config,
    database,
    auth,
    close: () => database.close(),
  };
}
