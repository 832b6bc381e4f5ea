/**
 * vitest's global setup: the PostgreSQL runs of the database tests need pgvector, which the
 * server at 127.0.0.1:5432 lacks here. Unless TEST_DATABASE_URL names a server (one with pgvector)
 * or the run is PGlite only, one PostgreSQL with pgvector is started for the whole run, on a free
 * port, and every test process finds it through TEST_DATABASE_URL (each test still creates its own
 * scratch database there, so files run in parallel as before).
 */
import { pgvectorBinDir, startPgvectorPostgres } from './pgvector-postgres';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.TEST_DATABASE_URL) return;
  const targets = process.env.TEST_DATABASES;
  if (targets && !targets.split(',').some((name) => name.trim() === 'postgres')) return;
  if (!pgvectorBinDir()) {
    // databases.ts reports it (a skip, or a failure under REQUIRE_POSTGRES=1).
    process.env.TEST_PGVECTOR_MISSING = '1';
    return;
  }
  const server = await startPgvectorPostgres();
  process.env.TEST_DATABASE_URL = server.url;
  process.env.TEST_POSTGRES_URL ??= server.url;
  return () => server.stop();
}
