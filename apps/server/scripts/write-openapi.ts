import fs from 'node:fs/promises';
import { OPENAPI_FILE, renderOpenApiDocument } from '../src/openapi-document.js';

// `npm run openapi`: rewrites apps/server/openapi.json from the routes' schemas.
await fs.writeFile(OPENAPI_FILE, await renderOpenApiDocument());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
