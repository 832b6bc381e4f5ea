// Where one search's time goes, at N passages: `node --import tsx bench/search-profile.ts N`.
// Seeds as the search bench does (or reuses PROFILE_DB_URL, already seeded), then times each step
// of the home search in this process and prints EXPLAIN (ANALYZE, BUFFERS) of the candidates SQL
// (its last lines; PROFILE_PLANS=1 prints whole plans, PROFILE_EXPLAIN=0 none). A PostgreSQL it
// seeds is left running for the next run: its URL and user are written to
// /tmp/moments-search-profile.env (PROFILE_DB_URL, PROFILE_USER_ID); stop it with pg_ctl when done.
import { writeFileSync } from 'node:fs';
import { loadDefaultEmbedder } from '@moments/ai/search';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { SearchRanking } from '../apps/server/src/modules/search/search-ranking.js';
import { SearchRepository } from '../apps/server/src/modules/search/search.repository.js';
import { SearchService } from '../apps/server/src/modules/search/search.service.js';
import { startPgvectorPostgres } from '../scripts/pgvector-postgres.js';
import { seed } from './search.bench.js';

const passages = Number(process.argv[2] ?? 100_000);

let url = process.env.PROFILE_DB_URL;
let userId = process.env.PROFILE_USER_ID;
if (!url) {
  const server = await startPgvectorPostgres({
    settings: { shared_buffers: '2GB', maintenance_work_mem: '3GB', work_mem: '16MB' },
  });
  url = server.url;
  const database = await openDatabase({ url });
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO users (id, email, username, password_hash)
     VALUES (gen_random_uuid(), 'search@example.com', 'search', 'x') RETURNING id`,
  );
  userId = rows[0]!.id;
  await seed(client, userId, passages);
  await client.end();
  writeFileSync(
    '/tmp/moments-search-profile.env',
    `PROFILE_DB_URL=${url}\nPROFILE_USER_ID=${userId}\n`,
  );
  console.log(`seeded; kept running: ${url} user ${userId}`);
}
const database = await openDatabase({ url });
const captured: { text: string; values: unknown[] }[] = [];
const repo = new SearchRepository(database.db, async (name, text, values) => {
  captured.push({ text, values });
  return database.prepared!(name, text, values);
});
const times = new Map<string, number[]>();
const timed = <T>(label: string, work: () => Promise<T>) => {
  const started = performance.now();
  return work().finally(() => {
    const list = times.get(label) ?? [];
    list.push(performance.now() - started);
    times.set(label, list);
  });
};
for (const method of [
  'candidates',
  'substringMatches',
  'momentsWithTasks',
  'videoKeys',
  'tasksByIds',
  'passages',
] as const) {
  const original = (repo[method] as (...args: unknown[]) => Promise<unknown>).bind(repo);
  (repo as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
    timed(`sql ${method}`, () => original(...args));
}
const embedderSource = async () => {
  const loaded = await loadDefaultEmbedder();
  if (!loaded.embedder) return loaded;
  const embedder = loaded.embedder;
  return {
    embedder: {
      modelId: embedder.modelId,
      embed: (texts: readonly string[]) =>
        timed(`embed (${texts.length > 1 ? 'sentences' : 'query'})`, () => embedder.embed(texts)),
    },
  };
};
const service = new SearchService(repo, new SearchRanking(repo, embedderSource), Buffer.from('x'));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
for (const [who, query] of [
  [userId!, 'pricing roadmap'],
  [userId!, 'how should the team plan the next product launch'],
  [null, 'pricing roadmap'],
  [null, 'how should the team plan the next product launch'],
] as const) {
  times.clear();
  captured.length = 0;
  await service.search(who, { query, num: 24 });
  // The first search of a query embeds it (MiniLM on this CPU); later ones hit the query cache.
  const firstEmbed = times.get('embed (query)');
  if (firstEmbed)
    console.log(`\n(first search of "${query}": query embedding ${firstEmbed[0]!.toFixed(1)} ms)`);
  times.clear();
  const total: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    await service.search(who, { query, num: 24 });
    total.push(performance.now() - started);
  }
  console.log(
    `\n## ${who ? 'signed in' : 'anonymous'}: "${query}": total median ${median(total).toFixed(1)} ms, max ${Math.max(...total).toFixed(1)}`,
  );
  for (const [label, list] of times) {
    console.log(`  ${label}: ${list.length / 15} per search, median ${median(list).toFixed(1)} ms`);
  }
  if (process.env.PROFILE_EXPLAIN !== '0') {
    const { text, values } = captured[0]!;
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      const client = new pg.Client({
        connectionString: url,
        options: '-c jit=off -c hnsw.ef_search=100 -c hnsw.iterative_scan=relaxed_order',
      });
      await client.connect();
      await client.query(`SET plan_cache_mode = ${mode}`);
      await client.query({ name: 'p', text, values });
      const started = performance.now();
      await client.query({ name: 'p', text, values });
      const ms = performance.now() - started;
      const literal = values.map((v) =>
        v === null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`,
      );
      const types = await client.query<{ t: string }>(
        `SELECT unnest(parameter_types)::regtype::text AS t FROM pg_prepared_statements WHERE name = 'p'`,
      );
      await client.query(`PREPARE q(${types.rows.map((r) => r.t).join(',')}) AS ${text}`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) EXECUTE q(${literal.join(',')})`,
      );
      console.log(`  --- ${mode}: ${ms.toFixed(1)} ms prepared`);
      if (process.env.PROFILE_PLANS) console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
      else
        console.log(
          rows
            .slice(-3)
            .map((r) => r['QUERY PLAN'])
            .join('\n'),
        );
      await client.end();
    }
  }
}
await database.close();
