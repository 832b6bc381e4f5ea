import type { FastifySchema } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addLinks, type Operations } from './openapi-links.js';
import { NUL_FREE_PATTERN } from './text-guard.js';

/**
 * A reply that is a file, not the JSON envelope (subtitles, fonts, video): documented with its
 * content types so clients and the fuzzer know what comes back. Sent as is, never serialized.
 */
export const fileReply = (description: string, contentTypes: readonly string[]) => ({
  description,
  content: Object.fromEntries(
    contentTypes.map((type) => [
      type,
      { schema: z.unknown().meta({ type: 'string', format: 'binary' }) },
    ]),
  ),
});

/** The replies of a stored file served with byte ranges (storage/file-routes.ts): all of it, or a part. */
export const rangedFileReplies = (description: string, contentType: string) => ({
  200: fileReply(description, [contentType]),
  206: fileReply('Part of it, for a Range request', [contentType]),
});

/**
 * Replies are encoded by their zod schema (a 2xx that breaks its schema is our bug and fails
 * loudly). Error envelopes are written by the error handlers, which check their codes against
 * the route's contract themselves (contract.ts), so they are sent as they are.
 */
export const serializeReply: typeof serializerCompiler = (route) => {
  const status = Number.parseInt(String(route.httpStatus), 10);
  if (status >= 400) return (data: unknown) => JSON.stringify(data);
  return serializerCompiler(route);
};

type Transform = typeof jsonSchemaTransform;

/**
 * A pattern that already refuses NUL: anchored at both ends, and once literal escapes (`\.`) and
 * plain classes (`[a-z.]`) are set aside, no negated class, wildcard or negated escape is left
 * that could match one.
 */
const refusesNul = (pattern: string) => {
  const rest = pattern.replace(/\\[^sSWDP]/g, '').replace(/\[[^\]^][^\]]*\]/g, '');
  if (pattern === NUL_FREE_PATTERN) return true;
  return pattern.startsWith('^') && pattern.endsWith('$') && !/\[\^|\.|\\[sSWDP]/.test(rest);
};

/**
 * Every string a route reads is refused with 400 when it holds a NUL (the text guard, which runs
 * on all routes); the document says so with a pattern, so a client (and the fuzzer) knows such a
 * string is outside the schema. A string with a pattern of its own gets the rule beside it.
 */
function stateNulRule(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(stateNulRule);
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  const types = [node.type].flat();
  const fixed = 'enum' in node || 'const' in node || node.format === 'binary';
  if (types.includes('string') && !fixed) {
    const pattern = node.pattern;
    if (typeof pattern !== 'string') node.pattern = NUL_FREE_PATTERN;
    else if (!refusesNul(pattern) && !JSON.stringify(node.allOf ?? []).includes('u0000')) {
      node.allOf = [...((node.allOf as unknown[]) ?? []), { pattern: NUL_FREE_PATTERN }];
    }
  }
  for (const value of Object.values(node)) stateNulRule(value);
}

/** Some character that is not white space, and no NUL anywhere. */
const REQUIRED_TEXT_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** zod to OpenAPI for each operation, plus the multipart bodies routes read themselves. */
export const documentOperation: Transform = (document) => {
  const multipart = (document.schema as FastifySchema | undefined)?.multipart;
  const result = jsonSchemaTransform(document);
  if (result.schema) {
    const { body, querystring, params } = result.schema as FastifySchema;
    for (const part of [body, querystring, params]) stateNulRule(part);
  }
  if (!multipart || !result.schema) return result;
  const { multipart: _documented, ...schema } = result.schema as FastifySchema;
  const properties = Object.fromEntries(
    Object.entries(multipart.fields).map(([name, kind]) => [
      name,
      kind === 'file'
        ? { type: 'string', format: 'binary' }
        : multipart.required.includes(name)
          ? // A required text part must say something: blank (or NUL-holding) text is refused.
            { type: 'string', pattern: REQUIRED_TEXT_PATTERN }
          : { type: 'string' },
    ]),
  );
  return {
    ...result,
    schema: {
      ...schema,
      consumes: ['multipart/form-data'],
      body: { type: 'object', required: multipart.required, properties },
    },
  };
};

/** Named schemas the operations refer to; the unreferenced ones (zod lists each twice) are left out. */
export const documentComponents: typeof jsonSchemaTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as ReturnType<
    typeof jsonSchemaTransformObject
  > & {
    components?: { schemas?: Record<string, unknown> };
  };
  addLinks((document as { paths?: Operations }).paths ?? {});
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const referenced = new Set<string>();
  let pending = Object.keys(schemas).filter((name) =>
    text.includes(`"#/components/schemas/${name}"`),
  );
  while (pending.length > 0) {
    for (const name of pending) referenced.add(name);
    const inside = JSON.stringify(pending.map((name) => schemas[name]));
    pending = Object.keys(schemas).filter(
      (name) => !referenced.has(name) && inside.includes(`"#/components/schemas/${name}"`),
    );
  }
  return {
    ...document,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => referenced.has(name))),
    },
  } as ReturnType<typeof jsonSchemaTransformObject>;
};
