/**
 * Migrations 0028 (transcript passages partitioned by their owner) and 0029 (the moments' vectors
 * copied to a table partitioned by their owner) on a database that already has passages and
 * moments: an instance upgraded from 0027 keeps every passage with its id, text, embedding and
 * corpus count; new passages get ids after the old ones; every embedded moment has its copy in its
 * owner's partition, kept in step afterwards; the owner still finds them by word and by meaning,
 * nobody else does, and deleting the task still removes them. On PGlite and on PostgreSQL.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import * as schema from '../src/db/schema.js';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { createScratchPostgres, DATABASE_TARGETS } from './support/databases.js';

const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');

/** The migrations folder as it was before 0028: the same files, the journal one entry shorter. */
async function migrationsBefore0028(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-migrations-'));
  await fs.cp(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await fs.readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0028');
  await fs.writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

interface Upgradable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  migrate(folder: string): Promise<void>;
  db: Db;
  close(): Promise<void>;
}

async function pgliteUpgradable(): Promise<Upgradable> {
  const client = await PGlite.create(undefined, { extensions: { vector } });
  const db = drizzlePglite(client, { schema });
  return {
    query: (text, values) =>
      client.query<Record<string, unknown>>(text, values) as Promise<{
        rows: Record<string, unknown>[];
      }>,
    migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
    db: db as unknown as Db,
    close: () => client.close(),
  };
}

async function postgresUpgradable(): Promise<Upgradable> {
  const scratch = await createScratchPostgres();
  const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  const db = drizzleNodePg(pool, { schema });
  return {
    query: (text, values) => pool.query(text, values),
    migrate: (folder) => migrateNodePg(db, { migrationsFolder: folder }),
    db: db as unknown as Db,
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}

// The databases this run covers (TEST_DATABASES), each opened at migration 0027 instead.
const TARGETS = await Promise.all(
  DATABASE_TARGETS.map(async (target) => ({
    name: target.name,
    unavailable: await target.unavailable(),
    open: target.name === 'pglite' ? pgliteUpgradable : postgresUpgradable,
  })),
);

/** A unit vector with its weight on one dimension: its nearest neighbour is itself. */
const axis = (dimension: number) =>
  `[${Array.from({ length: 384 }, (_, i) => (i === dimension ? 1 : 0)).join(',')}]`;

describe.each(TARGETS)(
  'passages and moment vectors partitioned by owner, upgraded on $name',
  (target) => {
    let database: Upgradable;
    let owners: { id: string; task: string }[] = [];
    let before: Record<string, unknown>[] = [];

    beforeAll(async () => {
      if (target.unavailable) return;
      database = await target.open();
      const folder = await migrationsBefore0028();
      await database.migrate(folder);
      await fs.rm(folder, { recursive: true, force: true });
      owners = [];
      for (const name of ['ada', 'grace', 'edsger']) {
        const user = await database.query(
          `INSERT INTO users (email, username, password_hash) VALUES ($1, $2, 'x') RETURNING id`,
          [`${name}@example.com`, name],
        );
        const task = await database.query(
          `INSERT INTO tasks (user_id, kind, url_source, video, status, stage, progress)
         VALUES ($1, 'viral', 'direct', $2, 'DONE', 'finishing', 100) RETURNING id`,
          [user.rows[0]!.id, JSON.stringify({ url: `https://example.com/${name}`, title: name })],
        );
        owners.push({ id: user.rows[0]!.id as string, task: task.rows[0]!.id as string });
      }
      // Before 0028: passages with embeddings, one without, counted and not.
      const lines = [
        'The glacier retreated two kilometres since the survey began',
        'Our orchard bees wintered under the hedge',
        'The bridge was painted red in the spring',
        'A lighthouse keeper logs the weather every hour',
      ];
      for (const [i, text] of lines.entries()) {
        const owner = owners[i % owners.length]!;
        await database.query(
          `INSERT INTO search_passages (task_id, user_id, start_ms, end_ms, text, segment_starts,
           search_vector, search_model, search_counted)
         VALUES ($1, $2, $3, $4, $5, $6, $7::halfvec(384), $8, $9)`,
          [
            owner.task,
            owner.id,
            i * 10_000,
            i * 10_000 + 9000,
            text,
            `{${i * 10_000}}`,
            i === 3 ? null : axis(i),
            i === 3 ? null : 'all-MiniLM-L6-v2-int8',
            i % 2 === 0,
          ],
        );
      }
      // Before 0029: moments with embeddings (dimensions 10, 11, ...), one without.
      for (const [i, owner] of owners.entries()) {
        await database.query(
          `INSERT INTO moments (task_id, user_id, type, rank, start_ms, end_ms, score, title,
           search_vector, search_model)
         VALUES ($1, $2, 'video_snippet', 0, 0, 30000, 70, $3, $4::halfvec(384), $5)`,
          [
            owner.task,
            owner.id,
            `Moment ${i}`,
            i === 2 ? null : axis(10 + i),
            i === 2 ? null : 'all-MiniLM-L6-v2-int8',
          ],
        );
      }
      const passages = `SELECT id::text, task_id, user_id, start_ms, end_ms, text, segment_starts,
        search_vector::text AS vector, search_model, search_counted, search_terms::text AS terms,
        search_len FROM search_passages ORDER BY id`;
      before = (await database.query(passages)).rows;
      await database.migrate(MIGRATIONS);
      expect((await database.query(passages)).rows).toEqual(before);
    }, 120_000);
    afterAll(async () => {
      await database?.close();
    });

    it('keeps every passage, now in its owner’s partition', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      expect(before).toHaveLength(4);
      const { rows } = await database.query(
        `SELECT tableoid::regclass::text AS partition, user_id FROM search_passages`,
      );
      const partitionsOf = new Map<string, Set<string>>();
      for (const row of rows) {
        expect(row.partition).toMatch(/^search_passages_p\d\d$/);
        const set = partitionsOf.get(row.user_id as string) ?? new Set();
        set.add(row.partition as string);
        partitionsOf.set(row.user_id as string, set);
      }
      // All of one owner's passages sit in one partition.
      for (const set of partitionsOf.values()) expect(set.size).toBe(1);
    });

    it('gives new passages ids after the old ones', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      const owner = owners[0]!;
      const { rows } = await database.query(
        `INSERT INTO search_passages (task_id, user_id, start_ms, end_ms, text, segment_starts)
       VALUES ($1, $2, 50000, 59000, 'A new passage about harbour seals', '{50000}') RETURNING id::text`,
        [owner.task, owner.id],
      );
      const oldMax = Math.max(...before.map((row) => Number(row.id)));
      expect(Number(rows[0]!.id)).toBeGreaterThan(oldMax);
    });

    it('finds the owner’s passages by word and by meaning, and nobody else’s', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      const repo = new SearchRepository(database.db);
      const scope = (userId: string, query: string, dimension: number) => ({
        userId,
        query,
        perWordCap: 50,
        rescoreCap: 50,
        meaning: { vector: axis(dimension), model: 'all-MiniLM-L6-v2-int8', cap: 50 },
      });
      // "glacier" is ada's first passage (dimension 0).
      const ada = await repo.candidates(scope(owners[0]!.id, 'glacier', 0));
      const glacier = before.find((row) => String(row.text).includes('glacier'))!;
      const byWord = ada.find((doc) => doc.kind === 'passage' && doc.bm25 !== null);
      expect(byWord?.id).toBe(glacier.id);
      const byMeaning = ada.filter((doc) => doc.kind === 'passage' && doc.bm25 === null);
      expect(byMeaning[0]?.id).toBe(glacier.id);
      expect(byMeaning[0]?.cosine).toBeCloseTo(1, 2);
      // Grace searches the same word and vector: ada's passage is not hers to see.
      const grace = await repo.candidates(scope(owners[1]!.id, 'glacier', 0));
      expect(grace.some((doc) => doc.id === glacier.id)).toBe(false);
      // The page's snippet passages: the owner's by id and by task, never another user's.
      const snippets = (userId: string) =>
        repo.passages(userId, [String(glacier.id)], [owners[0]!.task], 'glacier');
      const own = await snippets(owners[0]!.id);
      expect(own.map((row) => row.id)).toContain(glacier.id);
      expect(own.every((row) => row.task_id === owners[0]!.task)).toBe(true);
      expect(await snippets(owners[1]!.id)).toEqual([]);
    });

    it('copies each embedded moment’s vector to its owner’s partition, and keeps it in step', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      const copies = async () =>
        (
          await database.query(
            `SELECT v.tableoid::regclass::text AS partition, m.title,
             v.search_vector::text = m.search_vector::text AS same, v.task_id = m.task_id AS task
           FROM moment_vectors v JOIN moments m ON m.id = v.moment_id AND m.user_id = v.user_id
           ORDER BY m.title`,
          )
        ).rows;
      const partitionOf = (row: Record<string, unknown>) => row.partition;
      const copied = await copies();
      // The moment without an embedding has none to copy.
      expect(copied.map((row) => [row.title, row.same, row.task])).toEqual([
        ['Moment 0', true, true],
        ['Moment 1', true, true],
      ]);
      for (const row of copied) expect(partitionOf(row)).toMatch(/^moment_vectors_p\d\d$/);
      // Embedded later (the indexer's update), embedded again, and cleared: the copy follows.
      const embed = (title: string, vector: string | null) =>
        database.query(
          `UPDATE moments SET search_vector = $2::halfvec(384), search_model = $3 WHERE title = $1`,
          [title, vector, vector ? 'all-MiniLM-L6-v2-int8' : null],
        );
      await embed('Moment 2', axis(12));
      await embed('Moment 0', axis(20));
      expect((await copies()).map((row) => [row.title, row.same])).toEqual([
        ['Moment 0', true],
        ['Moment 1', true],
        ['Moment 2', true],
      ]);
      await embed('Moment 0', null);
      expect((await copies()).map((row) => row.title)).toEqual(['Moment 1', 'Moment 2']);
      await embed('Moment 0', axis(10));
    });

    it('finds the owner’s moments by meaning, and nobody else’s', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      const repo = new SearchRepository(database.db);
      const nearestMoments = async (userId: string, dimension: number) =>
        (
          await repo.candidates({
            userId,
            query: 'zzzz',
            perWordCap: 50,
            rescoreCap: 50,
            meaning: { vector: axis(dimension), model: 'all-MiniLM-L6-v2-int8', cap: 50 },
          })
        ).filter((doc) => doc.kind === 'moment');
      const moments = await database.query(`SELECT id::text, title FROM moments ORDER BY title`);
      const ada = await nearestMoments(owners[0]!.id, 10);
      expect(ada.map((doc) => doc.id)).toEqual([moments.rows[0]!.id]);
      expect(ada[0]!.cosine).toBeCloseTo(1, 2);
      // Grace sees her own moment, not ada's (none is published).
      const grace = await nearestMoments(owners[1]!.id, 10);
      expect(grace.map((doc) => doc.id)).toEqual([moments.rows[1]!.id]);
    });

    it('removes a task’s passages and moment vectors with the task', async (ctx) => {
      if (target.unavailable) return ctx.skip(target.unavailable);
      const owner = owners[1]!;
      await database.query('DELETE FROM tasks WHERE id = $1', [owner.task]);
      for (const table of ['search_passages', 'moment_vectors']) {
        const { rows } = await database.query(
          `SELECT count(*)::int AS n FROM ${table} WHERE task_id = $1`,
          [owner.task],
        );
        expect(rows[0]!.n, table).toBe(0);
      }
      const { rows } = await database.query(
        'SELECT count(*)::int AS n FROM moment_vectors WHERE user_id = $1',
        [owners[0]!.id],
      );
      expect(rows[0]!.n).toBe(1);
    });
  },
);
