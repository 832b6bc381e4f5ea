import { SearchVideosReply } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MomentsRepository } from '../src/modules/moments/moments.repository.js';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { recordingDatabase } from '../src/sql-review/recorder.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedTranscribedTask } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;

const SENTENCES = [
  'We moved the beehives to the orchard in early March.',
  'The colony that wintered under the hedge came out strongest.',
  'By June the clover honey was darker than the year before.',
];

/** The search index's bookkeeping: passages, embeddings and BM25 statistics stay in step. */
describe.each(DATABASE_TARGETS)('search index on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let user: User;
  let taskId = '';
  let momentId = '';
  const count = async (sql: string, values: unknown[] = []) =>
    Number(((await t.services.database.rawSql(sql, values)).rows[0] as { n: number | string }).n);

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    user = await signUp(t.app, 'beekeeper');
    const task = await seedTranscribedTask(
      t.services.database.db,
      user.userId,
      'A year with the bees',
      SENTENCES.map((text, i) => ({ text, startMs: i * 9000, endMs: i * 9000 + 8000, words: [] })),
    );
    taskId = task.id;
    await new MomentsRepository(t.services.database.db).syncForTask(taskId, 'video_snippet', [
      {
        taskId,
        userId: user.userId,
        type: 'video_snippet',
        rank: 0,
        startMs: 9000,
        endMs: 17_000,
        score: 70,
        reasons: [],
        title: 'The strongest colony',
        description: SENTENCES[1]!,
        hashtags: [],
        transcript: SENTENCES[1]!,
      },
    ]);
    momentId = (await new MomentsRepository(t.services.database.db).forTask(taskId))[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const search = async (query: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/p/v1/searchVideos',
      headers: user.headers,
      payload: { query },
    });
    return SearchVideosReply.parse(response.json().data).items;
  };

  it('backfills rows stored before the index, and counts them once', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // Stored before the index: no passages yet, so only the substring fallback finds the video,
    // with no passage to point at.
    const before = await search('clover honey');
    expect(before).toMatchObject([{ kind: 'task', task_id: taskId, start_ms: null }]);

    const first = await t.services.searchIndexer.backfill();
    expect(first.passages).toBe(1);
    expect(first.embedded).toBe(2); // the moment and the passage
    const [hit] = await search('clover honey');
    expect(hit).toMatchObject({ kind: 'task', task_id: taskId });
    expect(hit!.snippet).toBe(SENTENCES[2]);
    expect(hit!.start_ms).toBe(18_000);

    // Again: nothing new to do, and the statistics count each document once.
    expect(await t.services.searchIndexer.backfill()).toEqual({ passages: 0, embedded: 0 });
    expect(await count('SELECT docs AS n FROM search_corpus')).toBe(2);
    // "colony" is in the moment and in the passage.
    const docsWith = (word: string) =>
      count(
        `SELECT docs AS n FROM search_term_docs
         WHERE lexeme = (SELECT lexeme FROM unnest(to_tsvector('english', $1)))`,
        [word],
      );
    expect(await docsWith('colony')).toBe(2);
    expect(await docsWith('orchard')).toBe(1);
  });

  it('indexes a finished task again without duplicating its passages', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const segments = SENTENCES.map((text, i) => ({
      text,
      startMs: i * 9000,
      endMs: i * 9000 + 8000,
    }));
    await t.services.searchIndexer.indexTask({ id: taskId, userId: user.userId }, segments);
    await t.services.searchIndexer.indexTask({ id: taskId, userId: user.userId }, segments);
    expect(
      await count('SELECT count(*) AS n FROM search_passages WHERE task_id = $1', [taskId]),
    ).toBe(1);
    expect(
      await count(
        'SELECT count(*) AS n FROM search_passages WHERE task_id = $1 AND search_vector IS NOT NULL',
        [taskId],
      ),
    ).toBe(1);
  });

  it('embeds a moment again when its words change', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const embedded = () =>
      count('SELECT count(*) AS n FROM moments WHERE id = $1 AND search_vector IS NOT NULL', [
        momentId,
      ]);
    await new MomentsRepository(t.services.database.db).update(momentId, { favorite: true });
    expect(await embedded()).toBe(1); // a flag is not a new text
    await new MomentsRepository(t.services.database.db).update(momentId, {
      title: 'Wintering under the hedge',
    });
    expect(await embedded()).toBe(0);
    expect((await t.services.searchIndexer.backfill()).embedded).toBe(1);
    expect(await embedded()).toBe(1);
    // The owner's copy of the vector (moment_vectors, migration 0029) follows the moment's.
    const copies = await t.services.database.rawSql(
      `SELECT v.search_vector::text = m.search_vector::text AS same, v.user_id = m.user_id AS owner
       FROM moment_vectors v JOIN moments m ON m.id = v.moment_id WHERE v.moment_id = $1`,
      [momentId],
    );
    expect(copies.rows).toEqual([{ same: true, owner: true }]);
    const [hit] = await search('wintering hedge');
    expect(hit).toMatchObject({ kind: 'moment', moment_id: momentId });
  });

  it('creates pgvector and the HNSW indexes on the first start', async (ctx) => {
    if (skip) return ctx.skip(skip);
    expect(await count(`SELECT count(*) AS n FROM pg_extension WHERE extname = 'vector'`)).toBe(1);
    const { rows } = await t.services.database.rawSql(
      `SELECT indexname, indexdef FROM pg_indexes WHERE indexdef LIKE '%USING hnsw%' ORDER BY 1`,
    );
    // The passages (migration 0028) and the moments' vectors (0029) are partitioned by their
    // owner: one graph per partition. The published moments have a graph of their own.
    const partitionGraphs = (table: string) => [
      ...Array.from({ length: 16 }, (_, i) =>
        expect.objectContaining({
          indexname: `${table}_p${String(i).padStart(2, '0')}_search_vector_idx`,
        }),
      ),
      expect.objectContaining({ indexname: `${table}_vector_idx` }),
    ];
    expect(rows).toEqual([
      ...partitionGraphs('moment_vectors'),
      expect.objectContaining({ indexname: 'moments_published_vector_idx' }),
      ...partitionGraphs('search_passages'),
    ]);
    const partitioned = await t.services.database.rawSql(
      `SELECT c.relname AS name FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
       WHERE p.partstrat = 'h' ORDER BY 1`,
    );
    expect(partitioned.rows).toEqual([{ name: 'moment_vectors' }, { name: 'search_passages' }]);
    for (const row of rows as { indexdef: string }[]) {
      expect(row.indexdef).toContain('halfvec_cosine_ops');
      // The denser graph a million passages needed for recall.
      expect(row.indexdef).toMatch(/m='?24'?, ef_construction='?128'?/);
    }
  });

  it('takes the nearest documents from the HNSW indexes, in cosine order', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const vector = (
      await t.services.database.rawSql(
        'SELECT search_vector::text AS v FROM search_passages WHERE task_id = $1',
        [taskId],
      )
    ).rows[0] as { v: string };
    const scope = {
      userId: user.userId,
      query: 'zzzz',
      perWordCap: 50,
      rescoreCap: 50,
      meaning: { vector: vector.v, model: 'all-MiniLM-L6-v2-int8', cap: 50 },
    };
    const found = await new SearchRepository(t.services.database.db).candidates(scope);
    // The passage's own embedding is nearest to itself; the moment (another text) comes after.
    const passage = found.find((doc) => doc.kind === 'passage')!;
    expect(passage.cosine).toBeCloseTo(1, 2);
    expect(found.find((doc) => doc.kind === 'moment')!.cosine!).toBeLessThan(passage.cosine!);
    // The statement as sent, planned with whole-table reads and sorts priced out (tables this
    // small would be read and sorted whole): its passages' meaning part is an HNSW index scan.
    const recorder = recordingDatabase();
    await new SearchRepository(recorder.db).candidates(scope).catch(() => undefined);
    const [statement] = recorder.take();
    const plan = await t.services.database.db.transaction(async (tx) => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) {
        await tx.execute(sql.raw(`SET LOCAL ${setting} = off`));
      }
      const explained = await tx.execute(
        sql.raw(
          `EXPLAIN ${statement!.sql.replace(/\$(\d+)/g, (_, i: string) => literal(statement!.params[Number(i) - 1]))}`,
        ),
      );
      return (explained as unknown as { rows: Record<string, string>[] }).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    });
    // Only the requester's partitions are read, each through its HNSW graph.
    for (const table of ['search_passages', 'moment_vectors']) {
      const scans = [
        ...plan.matchAll(new RegExp(`Scan using (${table}_p\\d+)_search_vector_idx`, 'g')),
      ];
      expect(
        scans.map((scan) => scan[1]),
        plan,
      ).toHaveLength(1);
      expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}`));
    }
  });

  it('removes a task’s vectors with the task', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const vectors = () =>
      count('SELECT count(*) AS n FROM search_passages WHERE task_id = $1', [taskId]).then(
        async (passages) =>
          passages +
          (await count('SELECT count(*) AS n FROM moments WHERE task_id = $1', [taskId])) +
          (await count('SELECT count(*) AS n FROM moment_vectors WHERE task_id = $1', [taskId])),
      );
    expect(await vectors()).toBe(3);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/task?id=${taskId}`,
      headers: user.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await vectors()).toBe(0);
    expect(
      await count('SELECT count(*) AS n FROM search_passages WHERE search_vector IS NOT NULL'),
    ).toBe(0);
    expect(await search('clover honey')).toEqual([]);
  });
});

/** A parameter as an SQL literal, for EXPLAIN of a recorded statement (PGlite has no EXPLAIN with $n). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}
