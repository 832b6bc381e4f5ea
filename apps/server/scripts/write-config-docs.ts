import fs from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_DOCS_FILE, renderConfigDocs } from '../src/config/config-docs.js';

// `npm run docs:config`: rewrites docs/configuration.md from the environment schema, so the
// operator's reference changes in the same commit as the variable it documents.
await fs.mkdir(path.dirname(CONFIG_DOCS_FILE), { recursive: true });
await fs.writeFile(CONFIG_DOCS_FILE, await renderConfigDocs());
process.stdout.write(`wrote ${path.relative(process.cwd(), CONFIG_DOCS_FILE)}\n`);
