/**
 * The SQL of every repository query is committed under apps/server/sql, so a
 * reviewer sees each query change in the diff. These fail when the files are stale or a
 * repository has no examples.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUERY_SOURCES } from '../src/sql-review/examples.js';
import { renderSqlFiles, SQL_DIR } from '../src/sql-review/render.js';

const MODULES_DIR = path.resolve(import.meta.dirname, '../src/modules');

describe('the committed SQL review files', () => {
  let rendered: Map<string, string>;
  beforeAll(async () => {
    rendered = await renderSqlFiles();
  });

  it('are the SQL the repositories send now (run `npm run sql` after changing a query)', async () => {
    const committed = (await fs.readdir(SQL_DIR).catch(() => [])).filter((name) =>
      name.endsWith('.sql'),
    );
    const dir = path.relative(process.cwd(), SQL_DIR);
    expect(
      committed.sort(),
      `${dir} lists other files than the repositories: run \`npm run sql\` and commit it`,
    ).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered) {
      const current = await fs.readFile(path.join(SQL_DIR, name), 'utf8');
      expect(
        current === text,
        `${dir}/${name} is out of date: run \`npm run sql\` and commit it, so reviewers see the query change`,
      ).toBe(true);
    }
  });

  it('cover every repository that talks to the database', async () => {
    const files = (await fs.readdir(MODULES_DIR, { recursive: true })).filter((file) =>
      file.endsWith('.repository.ts'),
    );
    const registered = new Set(QUERY_SOURCES.map((source) => source.name));
    const missing: string[] = [];
    for (const file of files) {
      const text = await fs.readFile(path.join(MODULES_DIR, file), 'utf8');
      // A repository over the database takes the drizzle handle (`db: Db`) in its constructor.
      if (!/constructor\([^)]*\bdb: Db\b/s.test(text)) continue;
      for (const [, name] of text.matchAll(/export class (\w+)/g)) {
        if (!registered.has(name!)) missing.push(`${name} (${file})`);
      }
    }
    expect(missing, 'add the class to src/sql-review/examples.ts').toEqual([]);
  });

  it('show each method its statements, with parameters and no values', () => {
    const tasks = rendered.get('tasks.repository.sql')!;
    const listForUser = tasks
      .split('\n-- ')
      .find((section) => section.startsWith('TasksRepository.listForUser'));
    expect(listForUser).toMatch(/from\s+"tasks"\s+where\s+"tasks"\."user_id" = \$1/);
    expect(listForUser).toMatch(/limit\s+\$2\s+offset\s+\$3/);
    // A transaction's statements sit between begin and commit.
    const moments = rendered.get('moments.repository.sql')!;
    expect(moments).toMatch(/-- MomentsRepository\.syncForTask\nbegin;\n\nselect[\s\S]*?commit;/);
    expect(tasks).not.toContain('00000000-0000-4000');
  });
});
