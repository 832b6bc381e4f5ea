/**
 * Hot queries have indexes (issue 14 defect 10). With sequential scans switched off, PostgreSQL
 * still falls back to one when no index fits, so each plan below names the index it must use.
 * Also: the home list reads its moments with their tasks in one query, not one per moment.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { ExportsRepository } from '../src/modules/exports/exports.repository.js';
import { MomentsRepository } from '../src/modules/moments/moments.repository.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';

const postgres = await postgresReachable();
if (!postgres) console.warn('Skipping query plan tests: PostgreSQL is not reachable');

describe.skipIf(!postgres)('query plans on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let database: Database;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    database = await openDatabase({ url: scratch.url });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  /** The plan of `query` as text, with sequential scans discouraged. */
  async function plan(query: { toSQL(): { sql: string; params: unknown[] } } | string) {
    const { sql: text, params } =
      typeof query === 'string' ? { sql: query, params: [] } : query.toSQL();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const result = await client.query<Record<string, string>>(`EXPLAIN ${text}`, params);
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  }

  it('the export orphan poll uses its partial index', async () => {
    const repo = new ExportsRepository(database.db);
    const query = repo.findOrphaned(new Date()) as unknown as {
      toSQL(): { sql: string; params: unknown[] };
    };
    expect(await plan(query)).toContain('jobs_orphan_idx');
  });

  it('deleting a moment or task finds the jobs to set null by index', async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    expect(await plan(`SELECT id FROM jobs WHERE moment_id = '${id}'`)).toContain(
      'jobs_moment_idx',
    );
    expect(await plan(`SELECT id FROM jobs WHERE task_id = '${id}'`)).toContain('jobs_task_idx');
  });

  it('the anonymous home list uses the shared-moments index, tasks joined in one query', async () => {
    const repo = new MomentsRepository(database.db);
    const query = repo.sharedByTypeWithTasks('video_snippet', 24) as unknown as {
      toSQL(): { sql: string; params: unknown[] };
    };
    const text = await plan(query);
    expect(text).toContain('moments_shared_type_idx');
    expect(query.toSQL().sql).toMatch(/join "tasks"/i);
  });

  it('search reads stored text vectors through GIN indexes', async () => {
    expect(
      await plan(
        `SELECT id FROM moments WHERE search_vec @@ websearch_to_tsquery('simple', 'keynote')`,
      ),
    ).toContain('moments_search_idx');
    expect(
      await plan(
        `SELECT task_id FROM transcripts WHERE search_vec @@ websearch_to_tsquery('simple', 'keynote')`,
      ),
    ).toContain('transcripts_search_idx');
  });
});
