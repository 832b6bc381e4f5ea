import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOCS_FILE, renderConfigDocs, type EnvKey } from './config-docs.js';
import { EnvSchema, REPO_ROOT } from './index.js';

const schemaKeys = Object.keys(EnvSchema.shape) as EnvKey[];

describe('docs/configuration.md', () => {
  it('documents every variable of the environment schema', async () => {
    const text = await fs.readFile(CONFIG_DOCS_FILE, 'utf8');
    const missing = schemaKeys.filter((key) => !text.includes(`| \`${key}\``));
    expect(missing, 'variables of the schema missing from docs/configuration.md').toEqual([]);
  });

  it('is exactly what `npm run docs:config` writes from the schema', async () => {
    const committed = await fs.readFile(CONFIG_DOCS_FILE, 'utf8');
    expect(
      committed === (await renderConfigDocs()),
      'docs/configuration.md is stale: run `npm run docs:config` and commit the result',
    ).toBe(true);
  });
});

describe('.env.example', () => {
  const listed = async () => {
    const text = await fs.readFile(path.join(REPO_ROOT, '.env.example'), 'utf8');
    return new Set(
      [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].flatMap((match) =>
        match[1] ? [match[1]] : [],
      ),
    );
  };

  it('lists every variable the server reads', async () => {
    const names = await listed();
    const missing = schemaKeys.filter((key) => !names.has(key));
    expect(missing, 'variables missing from .env.example').toEqual([]);
  });

  it('lists nothing the server does not read', async () => {
    const known = new Set<string>(schemaKeys);
    const unknown = [...(await listed())].filter((name) => !known.has(name));
    expect(unknown, 'variables in .env.example that nothing reads').toEqual([]);
  });
});
