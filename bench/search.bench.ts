// Search at scale: `npm run bench -- search [--passages N]` (default 1,000,000; also
// SEARCH_BENCH_PASSAGES). PostgreSQL with pgvector (the one scripts/setup.sh installs, started on a
// free port; or TEST_DATABASE_URL) is seeded in bulk SQL with N transcript passages (synthetic
// words and embeddings), their tasks (30 passages each, ten users, the signed-in one owning a
// tenth), three moments per task and one published moment in five tasks, with the corpus
// statistics. It reports the HNSW index's size and build time, recall@10 of the HNSW search
// against exact search on 200 queries, then p50/p99 of the signed-in search (2 words, an 8-word
// question) and of the anonymous home search (2 words, an 8-word question: the published moments
// every visitor's home page searches) alone and at 25, 50, 100 and 200 req/s offered, and the
// highest of those rates holding p99 < 100 ms. Its last line is read by outside checks.
// SEARCH_BENCH_KEEP=1 leaves the seeded PostgreSQL running for bench/search-profile.ts.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { HNSW_SETTINGS } from '../apps/server/src/db/client.js';
import { spawnServer } from '../apps/server/test/support/process.js';
import { EMBEDDING_MODEL } from '../apps/server/test/support/load-seed.js';
import { startPgvectorPostgres } from '../scripts/pgvector-postgres.js';

const RATES = [25, 50, 100, 200];
const SECONDS = Number(process.env.SEARCH_BENCH_SECONDS ?? 10);
const GOAL_MS = 100;
const USERS = 10;
const PASSAGES_PER_TASK = 30;
const MOMENTS_PER_TASK = 3;
const RECALL_QUERIES = 200;

function passagesWanted(): number {
  const args = process.argv;
  const flag = args.indexOf('--passages');
  const value = flag >= 0 ? args[flag + 1] : process.env.SEARCH_BENCH_PASSAGES;
  const n = Number(value ?? 1_000_000);
  if (!Number.isInteger(n) || n < PASSAGES_PER_TASK) throw new Error(`--passages: ${value}`);
  return n;
}

// A few hundred words, so that a word is in a few percent of the passages, as in speech.
const WORDS = (
  'keynote pricing roadmap customer launch demo budget hiring design latency database cache ' +
  'security privacy camera microphone lighting editing caption subtitle audience growth ' +
  'retention churn onboarding feedback interview podcast episode guest story lesson mistake ' +
  'startup founder investor revenue margin team culture remote office meeting garden river ' +
  'mountain glacier weather climate energy solar battery engine bridge city village market ' +
  'school teacher student exam library museum painting music guitar piano concert festival ' +
  'kitchen recipe bread coffee dinner breakfast travel flight train ticket hotel beach island ' +
  'forest animal bird horse dog cat doctor hospital medicine health sleep exercise running ' +
  'football tennis match coach player season history war peace election law court judge ' +
  'science physics chemistry biology planet rocket satellite telescope ocean fishing boat ' +
  'harbour farmer harvest wheat apple orange coding software hardware server network phone ' +
  'laptop screen keyboard battery chart report strategy product marketing sales contract ' +
  'partner supplier factory warehouse shipping delivery invoice payment bank loan interest ' +
  'housing rent neighbour family child parent friend wedding holiday birthday memory dream ' +
  'language grammar writing novel poem author chapter question answer problem solution idea'
).split(' ');
const wordsSql = (n: number, seed: string) =>
  `(SELECT string_agg((ARRAY['${WORDS.join("','")}'])[1 + abs((${seed})::bigint * 7919 + i * 104729 + i * i * 31) % ${WORDS.length}], ' ') FROM generate_series(1, ${n}) AS i)`;

/**
 * Embeddings with structure, as real ones have: the sum of a topic (one of 100, norm 1), a
 * subtopic (one of 1,000, norm 0.7) and a detail (one of 10,000, norm 0.5), normalised.
 */
const POOLS = [
  { level: 1, size: 100, norm: 1 },
  { level: 2, size: 1000, norm: 0.7 },
  { level: 3, size: 10000, norm: 0.5 },
];
const vectorOf = (seed: string) =>
  `(SELECT l2_normalize(a.v + b.v + c.v) FROM vector_pool a, vector_pool b, vector_pool c
    WHERE a.level = 1 AND a.n = abs(hashtext(${seed})) % 100
      AND b.level = 2 AND b.n = abs(hashtext(${seed} || 'b')) % 1000
      AND c.level = 3 AND c.n = abs(hashtext(${seed} || 'c')) % 10000)`;

const VECTOR_INDEXES = [
  'CREATE INDEX search_passages_vector_idx ON search_passages USING hnsw (search_vector halfvec_cosine_ops) WITH (m = 24, ef_construction = 128)',
  'CREATE INDEX moment_vectors_vector_idx ON moment_vectors USING hnsw (search_vector halfvec_cosine_ops) WITH (m = 24, ef_construction = 128)',
  'CREATE INDEX moments_published_vector_idx ON moments USING hnsw (search_vector halfvec_cosine_ops) WITH (m = 24, ef_construction = 128) WHERE share_id IS NOT NULL AND published',
];
const WORD_INDEXES = [
  'CREATE INDEX search_passages_terms_idx ON search_passages USING gin (search_terms)',
  'CREATE INDEX moments_search_terms_idx ON moments USING gin (search_terms)',
];

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const load = () => os.loadavg()[0]!.toFixed(1);

export async function seed(client: pg.Client, mainUserId: string, passages: number) {
  const tasks = Math.ceil(passages / PASSAGES_PER_TASK);
  let started = performance.now();
  await client.query(`
    INSERT INTO users (id, email, username, password_hash)
    SELECT gen_random_uuid(), 'search' || u || '@example.com', 'search' || u, 'x'
    FROM generate_series(2, ${USERS}) AS u`);
  await client.query(`
    CREATE TABLE seed_users AS
    SELECT id, row_number() OVER (ORDER BY id = '${mainUserId}' DESC, id) - 1 AS n FROM users`);
  await client.query(`
    CREATE TEMP TABLE vector_pool AS
    SELECT p.level, n, array_agg(((random() - 0.5) * p.norm / 5.657)::real ORDER BY d)::halfvec(384) AS v
    FROM (VALUES ${POOLS.map((p) => `(${p.level}, ${p.size}, ${p.norm})`).join(', ')}) AS p(level, size, norm),
      LATERAL generate_series(0, p.size - 1) AS n, generate_series(1, 384) AS d
    GROUP BY p.level, n`);
  await client.query('CREATE INDEX ON vector_pool (level, n)');
  await client.query(`
    INSERT INTO tasks (id, user_id, kind, url_source, video, status, stage, progress, duration_ms, created_at)
    SELECT gen_random_uuid(), u.id, 'viral', 'direct',
      jsonb_build_object('url', 'https://example.com/v/' || t, 'title', ${wordsSql(6, 't')}),
      'DONE', 'finishing', 100, 600000, now() - (t || ' seconds')::interval
    FROM generate_series(0, ${tasks - 1}) AS t JOIN seed_users u ON u.n = t % ${USERS}`);
  console.log(`search: ${tasks} tasks in ${seconds(started)} s (load ${load()})`);
  // Bulk load with the big indexes away, then build them (timed), as a restore would.
  for (const index of [...VECTOR_INDEXES, ...WORD_INDEXES]) {
    await client.query(`DROP INDEX IF EXISTS ${index.split(' ')[2]}`);
  }
  started = performance.now();
  await client.query(`
    INSERT INTO search_passages (task_id, user_id, start_ms, end_ms, text, segment_starts,
      search_vector, search_model, search_counted)
    SELECT t.id, t.user_id, k * 20000, k * 20000 + 19000,
      ${wordsSql(25, 'hashtext(t.id::text) + k')} || E'\\n' || ${wordsSql(25, 'hashtext(t.id::text) - k')},
      ARRAY[k * 20000, k * 20000 + 10000], ${vectorOf(`t.id::text || k`)}, '${EMBEDDING_MODEL}', true
    FROM tasks t, generate_series(0, ${PASSAGES_PER_TASK - 1}) AS k
    LIMIT ${passages}`);
  console.log(`search: ${passages} passages in ${seconds(started)} s (load ${load()})`);
  started = performance.now();
  await client.query(`
    INSERT INTO moments (task_id, user_id, type, rank, start_ms, end_ms, score, title, description,
      transcript, share_id, published, search_vector, search_model, search_counted)
    SELECT t.id, t.user_id, 'video_snippet', r, r * 30000, r * 30000 + 25000, 60 + r,
      ${wordsSql(5, 'hashtext(t.id::text) + r * 7')}, ${wordsSql(12, 'hashtext(t.id::text) + r * 11')},
      ${wordsSql(40, 'hashtext(t.id::text) + r * 13')},
      CASE WHEN r = 0 AND abs(hashtext(t.id::text)) % 5 = 0 THEN md5(t.id::text) END,
      r = 0 AND abs(hashtext(t.id::text)) % 5 = 0,
      ${vectorOf(`t.id::text || 'm' || r`)}, '${EMBEDDING_MODEL}', true
    FROM tasks t, generate_series(0, ${MOMENTS_PER_TASK - 1}) AS r`);
  console.log(
    `search: ${tasks * MOMENTS_PER_TASK} moments in ${seconds(started)} s (load ${load()})`,
  );
  started = performance.now();
  for (const index of WORD_INDEXES) await client.query(index);
  console.log(`search: GIN word indexes built in ${seconds(started)} s`);
  started = performance.now();
  await client.query(VECTOR_INDEXES[0]!);
  const hnswSeconds = seconds(started);
  for (const index of VECTOR_INDEXES.slice(1)) await client.query(index);
  // A partitioned table's or index's size is its partitions'.
  const { rows: sizes } = await client.query<{ name: string; size: string }>(`
    SELECT c.relname AS name,
      pg_size_pretty(coalesce((SELECT sum(pg_relation_size(t.relid)) FROM pg_partition_tree(c.oid) t),
        pg_relation_size(c.oid))) AS size
    FROM pg_class c
    WHERE c.relname IN ('search_passages_vector_idx', 'moment_vectors_vector_idx',
      'moments_published_vector_idx', 'search_passages_terms_idx', 'search_passages')`);
  console.log(
    `search: HNSW index on ${passages} passages built in ${hnswSeconds} s (load ${load()}); sizes: ` +
      sizes.map((row) => `${row.name} ${row.size}`).join(', '),
  );
  started = performance.now();
  await client.query(`
    INSERT INTO search_term_docs (lexeme, docs)
      SELECT u.lexeme, count(*) FROM (
        SELECT search_terms FROM moments UNION ALL SELECT search_terms FROM search_passages) d,
        unnest(d.search_terms) u GROUP BY u.lexeme;
    UPDATE search_corpus SET
      docs = (SELECT count(*) FROM moments) + (SELECT count(*) FROM search_passages),
      length = (SELECT sum(search_len) FROM moments) + (SELECT sum(search_len) FROM search_passages);
    DROP TABLE seed_users`);
  // As after a restore (vacuumdb --analyze): statistics, and the visibility map set, so that
  // autovacuum does not start on the fresh million rows while the bench measures.
  await client.query('VACUUM ANALYZE');
  console.log(`search: corpus statistics and VACUUM ANALYZE in ${seconds(started)} s`);
}

/**
 * recall@10 of the HNSW scan (the server's settings) against an exact scan: over all passages,
 * and over the requester's own, as a signed-in search asks (one partition's graph, filtered).
 */
async function recallAt10(client: pg.Client, userId: string) {
  for (const [key, value] of Object.entries(HNSW_SETTINGS)) {
    await client.query('SELECT set_config($1, $2, false)', [key, value]);
  }
  const { rows: queries } = await client.query<{ v: string }>(`
    SELECT ${vectorOf(`'recall' || q`)}::text AS v FROM generate_series(1, ${RECALL_QUERIES}) AS q`);
  const recall = async (where: string, params: unknown[]) => {
    const nearest = async (v: string) =>
      (
        await client.query<{ id: string }>(
          `SELECT id FROM search_passages ${where} ORDER BY search_vector <=> $1::halfvec(384) LIMIT 10`,
          [v, ...params],
        )
      ).rows.map((row) => row.id);
    const found: string[][] = [];
    for (const { v } of queries) found.push(await nearest(v));
    await client.query('SET enable_indexscan = off');
    let hits = 0;
    for (const [i, { v }] of queries.entries()) {
      const exact = new Set(await nearest(v));
      hits += found[i]!.filter((id) => exact.has(id)).length;
    }
    await client.query('RESET enable_indexscan');
    return hits / (queries.length * 10);
  };
  return { all: await recall('', []), own: await recall('WHERE user_id = $2', [userId]) };
}

interface Target {
  name: string;
  headers: Record<string, string>;
  body: string;
  signedIn: boolean;
}

interface Figures {
  p50: number;
  p99: number;
  served: number;
  errors: number;
}

async function offer(url: string, target: Target, rate: number | null): Promise<Figures> {
  const result = await autocannon({
    url: `${url}/api/p/v1/searchVideos`,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    // Alone: one request at a time, back to back.
    connections: rate === null ? 1 : 20,
    ...(rate === null ? { amount: 300 } : { overallRate: rate, duration: SECONDS }),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    served: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export default async function run(): Promise<void> {
  const passages = passagesWanted();
  const server = process.env.TEST_DATABASE_URL
    ? null
    : await startPgvectorPostgres({
        settings: {
          shared_buffers: '2GB',
          maintenance_work_mem: '3GB',
          max_parallel_maintenance_workers: '2',
          work_mem: '16MB',
        },
      });
  const url = process.env.TEST_DATABASE_URL ?? server!.url;
  console.log(
    `search: ${passages} passages on ${url}; ${os.cpus().length} cores; uptime: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  let api: Awaited<ReturnType<typeof spawnServer>> | null = null;
  const client = new pg.Client({ connectionString: url });
  let userId: string | undefined;
  try {
    api = await spawnServer({
      DATABASE_URL: url,
      ROLES: 'api',
      APP_SECRET: 'the search bench shares one secret',
      API_PROCESSES: '1',
      REALTIME_BUS: 'memory',
      LOG_LEVEL: 'error',
      DATA_DIR: `/tmp/moments-search-bench-${process.pid}`,
      WEB_DIST_DIR: '/nonexistent',
    });
    const signup = (await (
      await fetch(`${api.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'search@example.com',
          password: 'searching at scale',
          username: 'search',
        }),
      })
    ).json()) as { data: { token: string; user: { id: string } } };
    userId = signup.data.user.id;
    await client.connect();
    await seed(client, userId, passages);
    const started = performance.now();
    const recalls = await recallAt10(client, signup.data.user.id);
    // The line outside checks read takes the lower of the two.
    const recall = Math.min(recalls.all, recalls.own);
    console.log(
      `search: HNSW recall@10 against exact search, ${RECALL_QUERIES} queries: all passages ` +
        `${recalls.all.toFixed(3)}, the requester's own ${recalls.own.toFixed(3)} (${seconds(started)} s)`,
    );
    const signedIn = {
      authorization: `Bearer ${signup.data.token}`,
      'content-type': 'application/json',
    };
    const anonymous = { 'content-type': 'application/json' };
    const body = (query: string) => JSON.stringify({ query, num: 24 });
    const twoWords = 'pricing roadmap';
    const question = 'how should the team plan the next product launch';
    const targets: Target[] = [
      { name: 'search, 2 words', headers: signedIn, body: body(twoWords), signedIn: true },
      { name: 'search, 8-word question', headers: signedIn, body: body(question), signedIn: true },
      {
        name: 'home search (anonymous), 2 words',
        headers: anonymous,
        body: body(twoWords),
        signedIn: false,
      },
      {
        name: 'anonymous feed search, 8 words',
        headers: anonymous,
        body: body(question),
        signedIn: false,
      },
    ];
    let aloneP99 = 0;
    let at100P99 = 0;
    for (const target of targets) {
      const check = await fetch(`${api.url}/api/p/v1/searchVideos`, {
        method: 'POST',
        headers: target.headers,
        body: target.body,
      });
      if (!check.ok) throw new Error(`${target.name}: ${check.status} ${await check.text()}`);
      const hits = ((await check.json()) as { data: { items: unknown[] } }).data.items.length;
      await offer(api.url, target, 25); // warm: the model, the prepared statements, the cache
      const alone = await offer(api.url, target, null);
      console.log(
        `search: ${target.name.padEnd(34)} alone: p50 ${alone.p50} ms, p99 ${alone.p99} ms (${hits} hits, load ${load()})`,
      );
      if (target.signedIn) aloneP99 = Math.max(aloneP99, alone.p99);
      let best = 0;
      for (const rate of RATES) {
        const figures = await offer(api.url, target, rate);
        if (figures.p99 < GOAL_MS && figures.errors === 0) best = rate;
        if (rate === 100 && target.signedIn) at100P99 = Math.max(at100P99, figures.p99);
        console.log(
          `search: ${target.name.padEnd(34)} ${String(rate).padStart(3)} req/s offered: ` +
            `${figures.served.toFixed(0)} served, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ` +
            `errors ${figures.errors}, load ${load()}`,
        );
      }
      console.log(
        `search: ${target.name.padEnd(34)} highest rate tried with p99 < ${GOAL_MS} ms: ${best ? `${best} req/s` : 'none'}`,
      );
    }
    console.log(
      `search_p99_alone_ms=${aloneP99} search_p99_at_100rps_ms=${at100P99} hnsw_recall_at_10=${recall.toFixed(3)} passages=${passages}`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await api?.kill();
    if (server && process.env.SEARCH_BENCH_KEEP && userId) {
      // Kept seeded for bench/search-profile.ts (its PROFILE_DB_URL and PROFILE_USER_ID).
      writeFileSync(
        '/tmp/moments-search-profile.env',
        `PROFILE_DB_URL=${server.url}\nPROFILE_USER_ID=${userId}\n`,
      );
      console.log(`search: PostgreSQL kept running (SEARCH_BENCH_KEEP): ${server.url}`);
    } else await server?.stop();
  }
}
