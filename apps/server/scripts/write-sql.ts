import fs from 'node:fs/promises';
import path from 'node:path';
import { renderSqlFiles, SQL_DIR } from '../src/sql-review/render.js';

// `npm run sql`: rewrites apps/server/sql/*.sql, the SQL of every repository query, so a reviewer
// sees each query change in the diff (as Immich's @GenerateSql files do).
const files = await renderSqlFiles();
await fs.mkdir(SQL_DIR, { recursive: true });
for (const name of await fs.readdir(SQL_DIR)) {
  if (name.endsWith('.sql') && !files.has(name)) await fs.rm(path.join(SQL_DIR, name));
}
for (const [name, text] of files) await fs.writeFile(path.join(SQL_DIR, name), text);
process.stdout.write(`wrote ${files.size} files to ${path.relative(process.cwd(), SQL_DIR)}\n`);
