import fs from 'node:fs/promises';
import { SCHEMA_FILE, renderSchemaSource } from '../src/generate.js';

// `npm run generate -w packages/client` (and `npm run openapi`): rewrites src/schema.ts.
await fs.writeFile(SCHEMA_FILE, await renderSchemaSource());
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
