/**
 * The hot queries use their indexes on their own: PostgreSQL is seeded as the load
 * bench seeds it (tens of thousands of tasks, moments, passages, notifications, exports and credit
 * movements) and ANALYZEd, and each query's plan, as the repository sends it and with the planner
 * left to its own costs (sequential scans allowed), must name the index it is meant to use and
 * read no big table end to end.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { LedgerRepository } from '../src/modules/billing/ledger/ledger.repository.js';
import { ExportsRepository } from '../src/modules/exports/exports.repository.js';
import { MomentsRepository } from '../src/modules/moments/moments.repository.js';
import { NotificationsRepository } from '../src/modules/notifications/notifications.repository.js';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { recordingDatabase, type RecordedStatement } from '../src/sql-review/recorder.js';
import { openDatabase } from '../src/db/client.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { EMBEDDING_MODEL, seedLoad, type LoadSeedSize } from './support/load-seed.js';

const postgres = await postgresReachable();
if (!postgres) console.warn('Skipping query plan tests: PostgreSQL is not reachable');

/** Tables big enough after seeding that reading one whole is the regression looked for. */
const BIG_TABLES = [
  'tasks',
  'moments',
  'search_passages',
  'moment_vectors',
  'transcripts',
  'notifications',
  'jobs',
  'credit_ledger',
];

/**
 * A fifth of the load bench's tasks (seeding all takes minutes on a shared box), still tens of
 * thousands of moments, passages and notifications; the requester owns one task in twenty.
 */
const SIZE: LoadSeedSize = {
  users: 20,
  tasksPerUser: 50,
  momentsPerTask: 10,
  notificationsPerUser: 500,
};

describe.skipIf(!postgres)('query plans on seeded PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let client: pg.Client;
  let userId: string;
  let taskId: string;
  /** The partition of the passages holding the requester's (migration 0028). */
  let ownPartition: string;
  /** The partition of the moments' vectors holding the requester's (migration 0029). */
  let ownMomentPartition: string;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    await (await openDatabase({ url: scratch.url })).close(); // migrations
    client = new pg.Client({ connectionString: scratch.url, options: '-c jit=off' });
    await client.connect();
    const user = await client.query<{ id: string }>(
      `INSERT INTO users (email, username, password_hash) VALUES ('plans@example.com', 'plans', 'x') RETURNING id`,
    );
    userId = user.rows[0]!.id;
    await seedLoad(scratch.url, userId, SIZE);
    const task = await client.query<{ id: string }>(
      'SELECT id FROM tasks WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
      [userId],
    );
    taskId = task.rows[0]!.id;
    const partition = await client.query<{ name: string }>(
      'SELECT DISTINCT tableoid::regclass::text AS name FROM search_passages WHERE user_id = $1',
      [userId],
    );
    expect(partition.rows).toHaveLength(1);
    ownPartition = partition.rows[0]!.name;
    const momentPartition = await client.query<{ name: string }>(
      'SELECT DISTINCT tableoid::regclass::text AS name FROM moment_vectors WHERE user_id = $1',
      [userId],
    );
    expect(momentPartition.rows).toHaveLength(1);
    ownMomentPartition = momentPartition.rows[0]!.name;
  }, 600_000);
  afterAll(async () => {
    await client?.end();
    await scratch?.drop();
  });

  /** The statements `call` sends, recorded (not run) with their parameters. */
  async function statementsOf(call: (db: Db) => Promise<unknown>): Promise<RecordedStatement[]> {
    const recorder = recordingDatabase();
    await call(recorder.db).catch(() => {
      // Deliberate: the recorder answers no rows, so a method may throw after sending its query.
    });
    return recorder.take().filter((statement) => !/^(begin|commit|rollback)$/.test(statement.sql));
  }

  /** The plan PostgreSQL chooses for the statement, as text. */
  async function plan({ sql, params }: RecordedStatement): Promise<string> {
    const result = await client.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  /**
   * The plan where the requester's passages are too many to read whole or row by row (a user
   * with a big library): sequential scans priced out and the passages' btree indexes gone, in a
   * transaction rolled back. Only the word index can then keep the plan from reading the
   * partition whole; a query it could not answer would be read whole all the same.
   */
  async function planWithOnlyWordIndex(statement: RecordedStatement): Promise<string> {
    await client.query('BEGIN');
    try {
      await client.query('SET LOCAL enable_seqscan = off');
      // Every btree over the passages' rows (the user's, the task's and the key, whose second
      // column is the user); what is left are the word and meaning indexes.
      await client.query('DROP INDEX search_passages_user_idx, search_passages_task_idx');
      const key = await client.query<{ name: string }>(
        `SELECT quote_ident(conname) AS name FROM pg_constraint
          WHERE conrelid = 'search_passages'::regclass AND contype = 'p'`,
      );
      await client.query(`ALTER TABLE search_passages DROP CONSTRAINT ${key.rows[0]!.name}`);
      return await plan(statement);
    } finally {
      await client.query('ROLLBACK');
    }
  }

  /** The plan of the one statement `call` sends: it uses `index` and reads no big table whole. */
  async function expectIndexed(
    call: (db: Db) => Promise<unknown>,
    ...indexes: (string | RegExp)[]
  ) {
    const statements = await statementsOf(call);
    expect(statements).toHaveLength(1);
    const text = await plan(statements[0]!);
    for (const index of indexes) expect(text, text).toMatch(index);
    // Another user's partition of the passages or moment vectors counts as the whole table; the
    // requester's own partition (their documents, read until the cap for a common word) does not.
    const scans = [...text.matchAll(/Seq Scan on (\w+)/g)]
      .map((match) => match[1]!)
      .filter((table) => table !== ownPartition && table !== ownMomentPartition)
      .map((table) => table.replace(/^(search_passages|moment_vectors)_p\d+$/, '$1'));
    expect(
      scans.filter((table) => BIG_TABLES.includes(table!)),
      text,
    ).toEqual([]);
    return text;
  }

  it('the task list reads one page of the user’s tasks from tasks_user_idx', async () => {
    await expectIndexed(
      (db) => new TasksRepository(db).listForUser(userId, 20, 0),
      'tasks_user_idx',
    );
    await expectIndexed(
      (db) => new TasksRepository(db).listForUser(userId, 20, 40),
      'tasks_user_idx',
    );
  });

  it('a task’s moments come from moments_task_idx', async () => {
    await expectIndexed((db) => new MomentsRepository(db).forTask(taskId), 'moments_task_idx');
  });

  it('the anonymous home list uses the shared-moments index, tasks joined in one query', async () => {
    const text = await expectIndexed(
      (db) => new MomentsRepository(db).sharedByTypeWithTasks('video_snippet', 24),
      'moments_shared_type_idx',
    );
    expect(text).not.toMatch(/Sort/);
    expect(text).toMatch(/tasks_pkey/);
  });

  it('the notification history reads one page from notifications_user_idx', async () => {
    // The first page, and the third of those at or before a time (what the bell's history sends).
    const page = (db: Db) => new NotificationsRepository(db).page(userId, 21, 0);
    await expectIndexed(page, 'notifications_user_idx');
    await expectIndexed(
      (db) => new NotificationsRepository(db).page(userId, 21, 40, new Date()),
      'notifications_user_idx',
    );
  });

  it('the credit history page reads the user’s movements from credit_ledger_user_idx', async () => {
    const statements = await statementsOf((db) =>
      new LedgerRepository(db).movements(userId, 21, 0),
    );
    const page = statements.find((statement) => /from "credit_ledger"/.test(statement.sql))!;
    const text = await plan(page);
    expect(text, text).toContain('credit_ledger_user_idx');
    expect(text, text).not.toMatch(/Seq Scan on (credit_ledger|tasks|jobs)\b/);
  });

  it('search proposes its candidates from the stemmed-word GIN indexes and the HNSW indexes', async () => {
    const search = (signedIn: boolean, query: string) => (db: Db) =>
      new SearchRepository(db).candidates({
        userId: signedIn ? userId : null,
        query,
        perWordCap: 100,
        rescoreCap: 100,
        meaning: {
          vector: `[${new Array(384).fill('0.05').join(',')}]`,
          model: EMBEDDING_MODEL,
          cap: 50,
        },
      });
    // Anonymous: published moments only. While they are few (here 2% of all), reading them through
    // a partial index over exactly that set beats probing the word index; either is an index.
    await expectIndexed(
      search(false, 'glaciers melting'),
      /moments_(search_terms|shared_type|search_published)_idx/,
    );
    // Signed in, a word no seeded document has (rare): the moments' GIN index answers at once.
    // The requester's partition of the passages holds a few thousand rows here (theirs, and those
    // of any user hashed beside them), which the planner may rightly read whole or through the
    // requester's key rather than guess at a word it cannot see; expectIndexed allows any read of
    // that partition, and none of another. Where the partition is too big for either, its GIN
    // index answers the word.
    const rare = search(true, 'glaciers melting');
    const own = await expectIndexed(
      rare,
      'moments_search_terms_idx',
      new RegExp(`on ${ownPartition}\\b`),
    );
    const atScale = await planWithOnlyWordIndex((await statementsOf(rare))[0]!);
    // (The branch for words in most documents reads the requester's rows by their user index,
    // gone here, so it is read whole in this plan: see 'pricing roadmap' below.)
    expect(atScale, atScale).toMatch(`${ownPartition}_search_terms_idx`);
    // The meaning candidates: the nearest passages through their HNSW index (the requester's are
    // a twentieth of all). The requester's 500 moments and the few published ones are fewer than
    // an index scan's candidate list: the planner may rightly rank them exactly, read through
    // their own indexes; never a scan of every document.
    // The passages and the moments' vectors are partitioned by owner (migrations 0028, 0029):
    // only the requester's partition of each is read, the passages' through its own graph.
    const ownGraphs = new Set(
      [...own.matchAll(/Index Scan using (search_passages_p\d+)_search_vector_idx/g)].map(
        (match) => match[1],
      ),
    );
    expect([...ownGraphs], own).toEqual([ownPartition]);
    const momentPartitions = new Set(
      [...own.matchAll(/on (moment_vectors_p\d+)/g)].map((match) => match[1]),
    );
    expect([...momentPartitions], own).toEqual([ownMomentPartition]);
    // Words in most documents are looked for among the requester's own documents.
    await expectIndexed(
      search(true, 'pricing roadmap'),
      /moments_(user|search_published)_idx/,
      // Through the user index, or by reading the requester's partition until the cap: the word
      // is in most of their documents, so the scan stops early.
      new RegExp(`(${ownPartition}_user_id_idx|Seq Scan on ${ownPartition}\\b)`),
    );
  });

  it('the export orphan poll and the foreign keys set null use their indexes', async () => {
    await expectIndexed(
      (db) => new ExportsRepository(db).findOrphaned(new Date()),
      'jobs_orphan_idx',
    );
    const moment = await client.query<{ id: string }>('SELECT id FROM moments LIMIT 1');
    expect(
      await plan({ sql: 'SELECT id FROM jobs WHERE moment_id = $1', params: [moment.rows[0]!.id] }),
    ).toContain('jobs_moment_idx');
    expect(
      await plan({ sql: 'SELECT id FROM jobs WHERE task_id = $1', params: [taskId] }),
    ).toContain('jobs_task_idx');
  });
});
