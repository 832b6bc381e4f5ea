// The data the load bench (bench/load.bench.ts) and the query plan test (query-plans.slow.test.ts)
// run against: bulk SQL into a scratch PostgreSQL database, tens of thousands of rows, with the
// transcript passages, stored embeddings and BM25 statistics as the search index keeps them.
import pg from 'pg';

/** The embedder's model id (packages/ai MiniLmEmbedder): seeded vectors are ranked as its own. */
export const EMBEDDING_MODEL = 'all-MiniLM-L6-v2-int8';

const WORDS = (
  'keynote pricing roadmap customer launch demo budget hiring design latency database cache ' +
  'security privacy camera microphone lighting editing caption subtitle audience growth ' +
  'retention churn onboarding feedback interview podcast episode guest story lesson mistake ' +
  'startup founder investor revenue margin growth team culture remote office meeting'
).split(' ');

/** One SQL expression: `n` words picked pseudo-randomly from WORDS for row `seed`. */
const wordsSql = (n: number, seed: string) =>
  `(SELECT string_agg((ARRAY['${WORDS.join("','")}'])[1 + abs((${seed})::bigint * 7919 + i * 104729) % ${WORDS.length}], ' ') FROM generate_series(1, ${n}) AS i)`;

/** How much to seed; the defaults are the load bench's. */
export interface LoadSeedSize {
  users: number;
  tasksPerUser: number;
  momentsPerTask: number;
  notificationsPerUser: number;
}

export const LOAD_SEED_SIZE: LoadSeedSize = {
  users: 50,
  tasksPerUser: 100, // 5,000 tasks
  momentsPerTask: 10, // 50,000 moments
  notificationsPerUser: 200, // 10,000 notifications
};

/**
 * Fills a migrated database as a busy server's would be: `users` accounts (the first is
 * `mainUserId`, which must exist), their finished tasks with transcripts, moments (a fifth of the
 * tasks publish their best one), the search index, and notifications; then ANALYZE.
 */
export async function seedLoad(
  url: string,
  mainUserId: string,
  size: LoadSeedSize = LOAD_SEED_SIZE,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO users (id, email, username, password_hash)
      SELECT gen_random_uuid(), 'load' || u || '@example.com', 'load' || u, 'x'
      FROM generate_series(2, ${size.users}) AS u`);
    await client.query(`
      CREATE TEMP TABLE seed_users AS
      SELECT id, row_number() OVER (ORDER BY id = '${mainUserId}' DESC, id) AS n FROM users`);
    await client.query(`
      INSERT INTO tasks (id, user_id, kind, url_source, video, status, stage, progress, duration_ms, created_at)
      SELECT gen_random_uuid(), u.id, 'viral', 'direct',
        jsonb_build_object('url', 'https://example.com/v/' || u.n || '-' || t, 'title', ${wordsSql(6, 'u.n * 1000 + t')}),
        'DONE', 'finishing', 100, 600000, now() - (t || ' minutes')::interval
      FROM seed_users u, generate_series(1, ${size.tasksPerUser}) AS t`);
    await client.query(`
      INSERT INTO transcripts (task_id, language, duration_ms, engine, segments)
      SELECT t.id, 'en', 600000, 'seed',
        (SELECT jsonb_agg(jsonb_build_object('startMs', s * 10000, 'endMs', s * 10000 + 9000,
           'text', ${wordsSql(25, 's + hashtext(t.id::text) % 1000')}, 'words', '[]'::jsonb))
         FROM generate_series(0, 59) AS s)
      FROM tasks t`);
    await client.query(`
      INSERT INTO moments (task_id, user_id, type, rank, start_ms, end_ms, score, title, description, transcript, share_id, published)
      SELECT t.id, t.user_id, 'video_snippet', r, r * 30000, r * 30000 + 25000,
        50 + (hashtext(t.id::text || r) % 50 + 50) % 50,
        ${wordsSql(5, 'r + hashtext(t.id::text) % 997')}, ${wordsSql(12, 'r * 3 + hashtext(t.id::text) % 991')},
        ${wordsSql(60, 'r * 5 + hashtext(t.id::text) % 983')},
        CASE WHEN r = 0 AND hashtext(t.id::text) % 5 = 0 THEN md5(t.id::text) END,
        r = 0 AND hashtext(t.id::text) % 5 = 0
      FROM tasks t, generate_series(0, ${size.momentsPerTask - 1}) AS r`);
    await seedSearchIndex(client);
    await client.query(`
      INSERT INTO notifications (user_id, type, viewed, data, created_at)
      SELECT u.id, 'TASK_STATUS_UPDATE', k % 3 = 0, jsonb_build_object('k', k), now() - (k || ' seconds')::interval
      FROM seed_users u, generate_series(1, ${size.notificationsPerUser}) AS k`);
    await seedExportsAndCredits(client);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/**
 * An export of each task's best moment (finished, but for one task in fifty still rendering), and
 * the credit history that work leaves: a charge per task and per export, a refund for every tenth
 * task, and the monthly plan grants.
 */
async function seedExportsAndCredits(client: pg.Client): Promise<void> {
  await client.query(`
    INSERT INTO jobs (user_id, moment_id, task_id, type, status, progress, title, created_at, heartbeat_at)
    SELECT m.user_id, m.id, m.task_id, 'VIRAL_MOMENT_EXPORT',
      CASE WHEN hashtext(m.task_id::text) % 50 = 0 THEN 'IN_PROGRESS' ELSE 'DONE' END,
      100, m.title, t.created_at + interval '5 minutes', t.created_at + interval '6 minutes'
    FROM moments m JOIN tasks t ON t.id = m.task_id WHERE m.rank = 0`);
  await client.query(`
    INSERT INTO credit_ledger (user_id, operation_key, kind, feature, bucket, amount, balance_after, reason, task_id, job_id, created_at)
    SELECT user_id, 'task:' || id, 'charge', 'credits', 'plan', -100, 1000, 'Video analysis', id, NULL::uuid, created_at FROM tasks
    UNION ALL
    SELECT user_id, 'task:' || id || ':refund', 'refund', 'credits', 'plan', 100, 1100, 'Refund', id, NULL::uuid, created_at + interval '1 minute'
      FROM tasks WHERE abs(hashtext(id::text)) % 10 = 0
    UNION ALL
    SELECT user_id, 'job:' || id, 'charge', 'exports', 'plan', -1, 10, 'Export', task_id, id, created_at FROM jobs
    UNION ALL
    SELECT u.id, 'grant:' || u.id || ':' || g, 'grant', 'credits', 'plan', 10000, 10000, 'Plan credits', NULL::uuid, NULL::uuid, now() - (g || ' months')::interval
      FROM seed_users u, generate_series(0, 11) AS g`);
}

/**
 * The search index as SearchIndexer leaves it: passages of two 25-word segments, an embedding for
 * every moment and passage (seedVectors), and the corpus statistics.
 */
async function seedSearchIndex(client: pg.Client): Promise<void> {
  await client.query(`
    INSERT INTO search_passages (task_id, user_id, start_ms, end_ms, text, segment_starts)
    SELECT t.id, t.user_id, (s.k * 2) * 10000, (s.k * 2 + 1) * 10000 + 9000,
      (t2.segments -> (s.k * 2) ->> 'text') || E'\\n' || (t2.segments -> (s.k * 2 + 1) ->> 'text'),
      ARRAY[(s.k * 2) * 10000, (s.k * 2 + 1) * 10000]
    FROM tasks t JOIN transcripts t2 ON t2.task_id = t.id, generate_series(0, 29) AS s(k)`);
  await seedVectors(client, ['moments', 'search_passages']);
  // recountCorpus's statements, in one go.
  await client.query(`
    UPDATE moments SET search_counted = true;
    UPDATE search_passages SET search_counted = true;
    INSERT INTO search_term_docs (lexeme, docs)
      SELECT u.lexeme, count(*) FROM (
        SELECT search_terms FROM moments UNION ALL SELECT search_terms FROM search_passages) d,
        unnest(d.search_terms) u GROUP BY u.lexeme;
    UPDATE search_corpus SET
      docs = (SELECT count(*) FROM moments) + (SELECT count(*) FROM search_passages),
      length = (SELECT sum(search_len) FROM moments) + (SELECT sum(search_len) FROM search_passages)`);
}

/**
 * The HNSW indexes of migrations 0025_pgvector_search and 0029_moment_vectors_by_user, by the
 * table whose vectors fill them (a moment's vector is copied to moment_vectors by a trigger).
 */
const VECTOR_INDEXES: Record<string, string[]> = {
  moments: [
    'CREATE INDEX moment_vectors_vector_idx ON moment_vectors USING hnsw (search_vector halfvec_cosine_ops) WITH (m = 24, ef_construction = 128)',
    'CREATE INDEX moments_published_vector_idx ON moments USING hnsw (search_vector halfvec_cosine_ops) WHERE share_id IS NOT NULL AND published',
  ],
  search_passages: [
    'CREATE INDEX search_passages_vector_idx ON search_passages USING hnsw (search_vector halfvec_cosine_ops)',
  ],
};

/**
 * An embedding for every row of `tables`: the normalised sum of two of 1,000 random unit vectors
 * (half a million distinct ones, spread as real embeddings are not, but the index's work per
 * query does not depend on what they mean). The HNSW indexes are dropped first and built again
 * after, as a bulk load would: a build is many times faster than one insertion per row.
 */
async function seedVectors(
  client: pg.Client,
  tables: string[],
  model = EMBEDDING_MODEL,
): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE IF NOT EXISTS vector_pool AS
    SELECT n, l2_normalize(array_agg((random() - 0.5)::real ORDER BY d)::halfvec(384)) AS v
    FROM generate_series(0, 999) AS n, generate_series(1, 384) AS d GROUP BY n`);
  for (const table of tables) {
    for (const create of VECTOR_INDEXES[table] ?? []) {
      await client.query(`DROP INDEX IF EXISTS ${create.split(' ')[2]}`);
    }
    await client.query(`
      UPDATE ${table} d SET search_vector = l2_normalize(a.v + b.v), search_model = '${model}'
      FROM vector_pool a, vector_pool b
      WHERE a.n = abs(hashtext(d.id::text)) % 1000 AND b.n = abs(hashtext(d.id::text || 'b')) % 1000`);
    for (const create of VECTOR_INDEXES[table] ?? []) await client.query(create);
  }
}
