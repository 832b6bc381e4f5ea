import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMomentsClient } from '@moments/client';
import { createMomentsMcpServer } from '@moments/mcp';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../http/errors.js';
import type { App } from '../../http/types.js';
import { inProcessFetch } from './in-process-fetch.js';

const MCP_PATH = '/mcp';

/** Any origin: the calls never leave the process (see inProcessFetch). */
const IN_PROCESS_ORIGIN = 'http://moments.in-process';

/**
 * The MCP server for agents at `/mcp` (Streamable HTTP, stateless: each POST is answered on its
 * own, so any API process can take any request). Its tools call the API itself with the request's
 * own bearer token, so an agent has exactly the rights, limits, ownership and prices of that
 * token on the HTTP API. A GET (the optional server-sent stream) answers 405, as a stateless
 * server does.
 */
export function registerMcpRoutes(app: App, options: { publicUrl?: string; version: string }) {
  const fetch = inProcessFetch(app);
  app.post(
    MCP_PATH,
    // Not a JSON route of the API: JSON-RPC in and out, documented in docs/mcp.md.
    { preHandler: requireBearerUser, schema: { hide: true } },
    async (request, reply) => {
      const client = createMomentsClient({
        baseUrl: IN_PROCESS_ORIGIN,
        fetch,
        headers: { authorization: request.headers.authorization ?? '' },
      });
      const server = createMomentsMcpServer(client, {
        publicUrl: options.publicUrl ?? `${request.protocol}://${request.host}`,
        version: options.version,
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      // The server closes its transport too: this request's in-memory state only.
      reply.raw.on('close', () => {
        server.close().catch((error: unknown) => {
          request.log.warn({ err: error, userId: request.user?.id }, 'mcp close failed');
        });
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        // Hijacked: Fastify's error handler can no longer answer, so this does.
        request.log.error({ err: error, userId: request.user?.id }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32603, message: 'Internal error' },
              id: null,
            }),
          );
        }
      }
    },
  );
}

/**
 * A bearer token the API's auth hook took (request.user is its verdict). Only a bearer: an agent
 * is no browser, and the session cookie alone (a page of another site posting here) must not
 * drive the tools. What the token may do is checked on each API call a tool makes, so a token
 * that may only read still connects and reads.
 */
async function requireBearerUser(request: FastifyRequest) {
  if (!request.headers.authorization?.startsWith('Bearer ') || !request.user) throw unauthorized();
}
