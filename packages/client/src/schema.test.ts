import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, renderSchemaSource } from './generate.js';

describe("the typed client's committed types", () => {
  it('are generated from the committed openapi.json (run `npm run openapi` after changing a route)', async () => {
    const committed = await fs.readFile(SCHEMA_FILE, 'utf8').catch(() => '(missing)');
    const file = path.relative(process.cwd(), SCHEMA_FILE);
    expect(
      committed === (await renderSchemaSource()),
      `${file} is out of date: run \`npm run openapi\` (or \`npm run generate -w packages/client\`) and commit it`,
    ).toBe(true);
  }, 60_000);
});
