import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The server's committed document, the one source of these types. */
const OPENAPI_FILE = path.resolve(here, '../../../apps/server/openapi.json');
/** The generated types, committed beside the client so that an API change shows in review. */
export const SCHEMA_FILE = path.join(here, 'schema.ts');

/**
 * The TypeScript of every path, operation and component in openapi.json, formatted as the
 * repository's Prettier formats it (so `prettier --check` and the staleness test agree).
 */
export async function renderSchemaSource(): Promise<string> {
  const ast = await openapiTS(new URL(`file://${OPENAPI_FILE}`));
  const source = `${COMMENT_HEADER.replace(
    'Do not make direct changes to the file.',
    'Do not make direct changes to the file: `npm run generate -w packages/client` rewrites it.',
  )}${astToString(ast)}`;
  const options = await prettier.resolveConfig(SCHEMA_FILE);
  return prettier.format(source, { ...options, filepath: SCHEMA_FILE });
}
