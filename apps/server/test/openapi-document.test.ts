import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILE, renderOpenApiDocument } from '../src/openapi-document.js';

describe('the committed OpenAPI document', () => {
  let served: string;
  beforeAll(async () => {
    served = await renderOpenApiDocument();
  });

  it('is the document the server serves (run `npm run openapi` after changing a route)', async () => {
    const committed = await fs.readFile(OPENAPI_FILE, 'utf8').catch(() => '(missing)');
    const file = path.relative(process.cwd(), OPENAPI_FILE);
    expect(
      committed === served,
      `${file} is out of date: run \`npm run openapi\` and commit it, so reviewers see the API change`,
    ).toBe(true);
  });

  it('documents every error an operation can answer in the envelope, with its codes', async () => {
    const document = JSON.parse(served) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: { code?: { enum?: string[] } } }> };
    };
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(70);
    for (const { route, method, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      // Every operation: a failure of ours, the database away, over-long headers.
      expect(statuses, `${method} ${route}`).toEqual(expect.arrayContaining(['500', '503', '431']));
      for (const status of statuses.filter((code) => Number(code) >= 400)) {
        const reference = JSON.stringify(operation.responses[status]).match(
          /#\/components\/schemas\/([A-Za-z0-9_]+)/,
        )?.[1];
        const codes = reference
          ? document.components.schemas[reference]?.properties?.code?.enum
          : undefined;
        expect(codes?.length, `${method} ${route} ${status} names its codes`).toBeGreaterThan(0);
      }
    }
    const start = document.paths['/api/highlight_moment/task/start']!.post!;
    expect(Object.keys(start.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404', '413', '422', '429']),
    );
    const upload = document.paths['/api/upload']!.post! as unknown as {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('links what an operation creates to the operations that take it', () => {
    const document = JSON.parse(served) as {
      paths: Record<string, Record<string, { responses: Record<string, { links?: object }> }>>;
    };
    const linksOf = (route: string, method: string) =>
      Object.values(document.paths[route]![method]!.responses['200']!.links ?? {}) as {
        operationRef: string;
        parameters?: Record<string, string>;
        requestBody?: unknown;
      }[];
    const target = (ref: string) =>
      ref.replace('#/paths/', '').replaceAll('~1', '/').replaceAll('~0', '~');
    // A started task leads to its moments, its summary and its deletion, by its id.
    const fromTask = linksOf('/api/highlight_moment/task/start', 'post');
    expect(fromTask.map((link) => target(link.operationRef))).toEqual(
      expect.arrayContaining([
        '/api/highlight_moment/list/get',
        '/api/summary/get',
        '/api/highlight_moment/task/delete',
      ]),
    );
    expect(fromTask.find((link) => link.operationRef.endsWith('summary/get'))?.parameters).toEqual({
      'query.task_id': '$response.body#/data/id',
    });
    // Every link names an operation of the document.
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        for (const link of linksOf(route, method)) {
          const [path, verb] = [
            target(link.operationRef).replace(/\/[a-z]+$/, ''),
            target(link.operationRef).split('/').pop()!,
          ];
          expect(
            document.paths[path]?.[verb],
            `${method} ${route} -> ${link.operationRef}`,
          ).toBeDefined();
        }
      }
    }
    const note = linksOf('/api/note', 'post').map((link) => target(link.operationRef));
    expect(note).toEqual(
      expect.arrayContaining(['/api/note/get', '/api/note/put', '/api/note/delete']),
    );
    const job = linksOf('/api/job', 'post').map((link) => target(link.operationRef));
    expect(job).toEqual(expect.arrayContaining(['/api/job/{id}/get', '/api/job/{id}/delete']));
  });

  it('states on every string a route reads that a NUL is refused', () => {
    const note =
      JSON.parse(served).paths['/api/note'].post.requestBody.content['application/json'].schema
        .properties.title;
    expect(new RegExp(note.pattern, 'u').test('Road\u0000trip')).toBe(false);
    expect(new RegExp(note.pattern, 'u').test('Road trip 😀')).toBe(true);
  });
});
