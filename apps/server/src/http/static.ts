import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES } from '@moments/contract';
import { answerMethodNotAllowed, type ApiContract } from './contract.js';
import type { App } from './types.js';

const API_PREFIXES = ['/api/', '/sys/', '/stomp-ws', '/files/'];

/**
 * Serves the built web app and answers every other GET with index.html so client-side routes
 * resolve (unknown routes are redirected by the client, keeping query and hash).
 * API paths never fall back to the page: they get the JSON 404 envelope, or 405 with `Allow` when
 * the path exists with other methods.
 */
export async function serveWebApp(app: App, distDir: string, contract: ApiContract) {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (answerMethodNotAllowed(contract, request, reply)) return reply;
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    // HEAD answers like GET (link checkers, uptime probes); Node leaves the body out by itself.
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply
        .status(404)
        .send({ code: ERROR_CODES.NOT_FOUND, message: 'No such endpoint', data: null });
    }
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build` (npm start does this for you).');
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
