import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildHttpApp } from './app.js';
import { loadConfig } from './config/index.js';
import { openDatabase } from './db/client.js';
import { createServices } from './services.js';

/** Where the reviewed copy of the OpenAPI document lives (`npm run openapi` writes it). */
export const OPENAPI_FILE = path.resolve(import.meta.dirname, '../openapi.json');

/**
 * The OpenAPI document exactly as `GET /api/openapi.json` serves it, built from a server with the
 * default settings (an in-memory database, nothing listening), as formatted JSON. Committed, so a
 * change of the API shows in review beside the code that made it (as Immich does).
 */
export async function renderOpenApiDocument(): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const services = await createServices(config, { database: await openDatabase({}) });
    const app = await buildHttpApp(config, services);
    try {
      await app.ready();
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
      await services.close();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
