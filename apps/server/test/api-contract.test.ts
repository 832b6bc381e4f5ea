import net from 'node:net';
import { ERROR_CODES } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requireUser } from '../src/http/auth.js';
import { derivedErrors, installApiContract } from '../src/http/contract.js';
import { installErrorHandler } from '../src/http/error-handler.js';
import { AppError } from '../src/http/errors.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import Fastify, { type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { serializeReply } from '../src/http/openapi.js';

/** What a client can rely on beyond each operation's own replies. */
describe('the API contract', () => {
  let t: TestApp;

  beforeAll(async () => {
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    t = await startTestApp(await pglite.open(), {}, { listen: true });
  });
  afterAll(async () => t?.close());

  it('answers 405 with Allow to a method a known path lacks, and 404 to an unknown path', async () => {
    const { headers } = await signUp(t.app, 'methods');
    for (const method of ['PATCH', 'OPTIONS', 'QUERY'] as const) {
      const reply = await fetch(`${t.url}/api/note?id=x`, { method, headers });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get('allow'), method).toBe('DELETE, GET, HEAD, POST, PUT');
      expect(await reply.json()).toMatchObject({
        code: ERROR_CODES.METHOD_NOT_ALLOWED,
        data: null,
      });
    }
    // A path with a parameter that also matches a fixed path belongs to the fixed one.
    const list = await fetch(`${t.url}/api/job/list`, { method: 'PUT', headers });
    expect(list.headers.get('allow')).toBe('GET, HEAD');
    const unknown = await fetch(`${t.url}/api/no-such-call`, { method: 'POST', headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND });
  });

  it('answers a too large body, address or header block inside the envelope', async () => {
    const large = await fetch(`${t.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: ERROR_CODES.PAYLOAD_TOO_LARGE, data: null });

    // A path parameter over the router's limit (Fastify's own 414).
    const longParam = await rawRequest(
      `GET /api/job/${'x'.repeat(2000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(longParam.status).toBe(414);
    expect(JSON.parse(longParam.body)).toMatchObject({
      code: ERROR_CODES.URI_TOO_LONG,
      data: null,
    });

    // Node's parser: an address, then headers, over its 16 KiB limit.
    const longUrl = await rawRequest(
      `GET /api/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(longUrl.status).toBe(414);
    expect(JSON.parse(longUrl.body)).toMatchObject({ code: ERROR_CODES.URI_TOO_LONG });
    const bigHeaders = await rawRequest(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(bigHeaders.status).toBe(431);
    expect(bigHeaders.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(bigHeaders.body)).toMatchObject({ code: ERROR_CODES.HEADERS_TOO_LARGE });

    const badEscape = await rawRequest('GET /api/%zz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(badEscape.status).toBe(400);
    expect(JSON.parse(badEscape.body)).toMatchObject({ code: ERROR_CODES.BAD_REQUEST });
  });

  function rawRequest(request: string) {
    const { port } = new URL(t.url);
    return new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      let received = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = received.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
      socket.setTimeout(5000, () => socket.end());
    });
  }
});

describe('a route that answers an error it does not declare', () => {
  const build = async (strict: boolean) => {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    const contract = installApiContract(app, { strict });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializeReply);
    installErrorHandler(app, contract);
    app.decorateRequest('user', null);
    app.post(
      '/api/things',
      {
        preHandler: requireUser,
        config: { errors: [ERROR_CODES.CONFLICT] },
        schema: { body: z.object({ name: z.string() }) },
      },
      async (request) => {
        if (request.body.name === 'taken') throw new AppError(ERROR_CODES.CONFLICT, 409, 'taken');
        throw new AppError(ERROR_CODES.EMAIL_TAKEN, 409, 'undeclared');
      },
    );
    app.addHook('onRequest', async (request) => {
      request.user = { id: 'u1' };
    });
    await app.ready();
    return app;
  };

  it('fails under tests with the code to declare, and is sent as is (and logged) in production', async () => {
    const strict = await build(true);
    const declared = await strict.inject({
      method: 'POST',
      url: '/api/things',
      payload: { name: 'taken' },
    });
    expect(declared.statusCode, declared.body).toBe(409);
    expect(declared.json().code).toBe('CONFLICT');
    const undeclared = await strict.inject({
      method: 'POST',
      url: '/api/things',
      payload: { name: 'x' },
    });
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json().message).toBe(
      "POST /api/things answered 409 EMAIL_TAKEN, which its route does not declare: add ERROR_CODES.EMAIL_TAKEN to the route's config.errors",
    );
    await strict.close();

    const production = await build(false);
    const sent = await production.inject({
      method: 'POST',
      url: '/api/things',
      payload: { name: 'x' },
    });
    expect(sent.statusCode).toBe(409);
    expect(sent.json().code).toBe('EMAIL_TAKEN');
    await production.close();
  });

  it('derives the errors of what a route is: auth, input, body, rate limit, an id', () => {
    const handler = async () => null;
    const codes = derivedErrors({
      method: 'POST',
      url: '/x',
      handler,
      preHandler: requireUser,
      config: { rateLimit: { max: 1, timeWindow: 1000 } },
      schema: { body: z.object({ task_id: z.string() }) },
    } as RouteOptions);
    expect(new Set(codes)).toEqual(
      new Set([
        'INTERNAL',
        'DATABASE_UNAVAILABLE',
        'HEADERS_TOO_LARGE',
        'VALIDATION_FAILED',
        'BAD_REQUEST',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'FORBIDDEN',
        'DISK_FULL',
        'UNAUTHORIZED',
        // An API token beyond its scopes; its own rate limit.
        'INSUFFICIENT_SCOPE',
        'RATE_LIMITED',
        'NOT_FOUND',
      ]),
    );
    const plainGet = derivedErrors({
      method: 'GET',
      url: '/y',
      handler,
      schema: {},
    } as RouteOptions);
    expect(plainGet).toEqual([
      'INTERNAL',
      'DATABASE_UNAVAILABLE',
      'DISK_FULL',
      'HEADERS_TOO_LARGE',
    ]);
  });
});
