import multipart from '@fastify/multipart';
import {
  BrandKit,
  BrandKitFields,
  envelopeOf,
  ERROR_CODES,
  MAX_LOGO_BYTES,
} from '@moments/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { AppError, badRequest } from '../../http/errors.js';
import { IdInput, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { BrandKitsService } from './brand-kits.service.js';

/** The multipart body's parts, documented in OpenAPI (the route reads them itself). */
const KIT_PARTS = {
  name: 'string',
  logo: 'file',
  logo_position: 'string',
  logo_opacity: 'string',
  logo_scale: 'string',
  style: 'string',
  intro_text: 'string',
  outro_text: 'string',
  remove_logo: 'string',
} as const;
const TEXT_FIELDS = new Set(Object.keys(KIT_PARTS).filter((name) => name !== 'logo'));

const tooLarge = () =>
  new AppError(
    ERROR_CODES.PAYLOAD_TOO_LARGE,
    413,
    `The logo is larger than the ${MAX_LOGO_BYTES / 1024 / 1024} MB limit.`,
  );

const invalidFields = (message: string) =>
  new AppError(ERROR_CODES.VALIDATION_FAILED, 400, message);

const KIT_ERRORS = [
  ERROR_CODES.INVALID_LOGO,
  ERROR_CODES.UNKNOWN_FONT,
  ERROR_CODES.PAYLOAD_TOO_LARGE,
  ERROR_CODES.VALIDATION_FAILED,
] as const;

interface KitBody {
  fields: Record<string, unknown>;
  logo: Buffer | undefined;
  removeLogo: boolean;
}

/**
 * Reads a kit's multipart body: its text fields (numbers and the style's JSON decoded) and the
 * logo, held in memory up to MAX_LOGO_BYTES; a larger one stops the read and answers 413.
 */
async function readKitBody(request: FastifyRequest): Promise<KitBody> {
  if (!request.isMultipart()) {
    throw badRequest('Send the brand kit as multipart/form-data.');
  }
  if ((Number(request.headers['content-length']) || 0) > MAX_LOGO_BYTES + 256 * 1024) {
    throw tooLarge();
  }
  const raw: Record<string, string> = {};
  let logo: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'logo' || logo) {
          part.file.resume();
          throw badRequest('Send one logo, in a multipart field named "logo".');
        }
        logo = await part.toBuffer();
      } else if (TEXT_FIELDS.has(part.fieldname)) {
        raw[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      code === 'FST_REQ_FILE_TOO_LARGE' ||
      (error as { statusCode?: number }).statusCode === 413
    ) {
      throw tooLarge();
    }
    if (error instanceof AppError) throw error;
    throw badRequest(`The multipart/form-data body is malformed: ${(error as Error).message}`);
  }
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'remove_logo') continue;
    if (name === 'logo_opacity' || name === 'logo_scale') {
      fields[name] = value.trim() === '' ? Number.NaN : Number(value);
    } else if (name === 'style') {
      try {
        fields[name] = value.trim() === '' ? {} : JSON.parse(value);
      } catch {
        throw invalidFields('`style` must be a JSON object of caption style fields.');
      }
    } else if (name === 'intro_text' || name === 'outro_text') {
      fields[name] = value.trim() === '' ? null : value;
    } else {
      fields[name] = value;
    }
  }
  if (logo && logo.length === 0) logo = undefined;
  return { fields, logo, removeLogo: raw.remove_logo === 'true' };
}

function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidFields(
      `Brand kit field ${issue?.path.join('.') || ''} is invalid: ${issue?.message ?? 'unknown'}`,
    );
  }
  return parsed.data;
}

/** Only the keys a request sent: a field left out keeps its value. */
const UpdateFields = BrandKitFields.partial();

/**
 * Brand kits: `POST /api/brand_kit` and `PUT /api/brand_kit/{id}` (multipart, in their own scope
 * so the multipart parser is registered only there), the list and the deletion.
 */
export async function registerBrandKitRoutes(app: App, kits: BrandKitsService): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 12, fieldSize: 16 * 1024 },
    });
    scope.post(
      '/api/brand_kit',
      {
        preHandler: requireUser,
        config: { errors: [...KIT_ERRORS, ERROR_CODES.BRAND_KIT_LIMIT_REACHED] },
        schema: {
          tags: ['brand_kit'],
          summary:
            'Make a brand kit (multipart: `name`, `logo` PNG/JPEG/SVG, `logo_position`, `logo_opacity`, `logo_scale`, `style` as JSON, `intro_text`, `outro_text`)',
          multipart: { fields: KIT_PARTS, required: ['name'] },
          response: { 200: envelopeOf(z.object({ id: z.string() })) },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        // Over the plan's limit: refused before the logo is read.
        await kits.assertCanCreate(userId);
        const body = await readKitBody(request);
        const fields = parseFields(BrandKitFields, body.fields);
        return ok(await kits.create(userId, fields, body.logo ?? null));
      },
    );
    scope.put(
      '/api/brand_kit/:id',
      {
        preHandler: requireUser,
        config: { errors: KIT_ERRORS },
        schema: {
          tags: ['brand_kit'],
          summary:
            'Change a brand kit: the fields sent (as for POST), a new `logo`, or `remove_logo=true` to drop it',
          params: IdInput,
          multipart: { fields: KIT_PARTS, required: [] },
          response: { 200: envelopeOf(BrandKit) },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        const { id } = request.params as z.infer<typeof IdInput>;
        // Another user's kit is NOT_FOUND whatever the body holds.
        await kits.assertOwned(userId, id);
        const body = await readKitBody(request);
        const parsed = parseFields(UpdateFields, body.fields);
        const fields = Object.fromEntries(
          Object.entries(parsed).filter(([key]) => key in body.fields),
        );
        const logo = body.logo ?? (body.removeLogo ? null : undefined);
        return ok(await kits.update(userId, id, { fields, ...(logo !== undefined && { logo }) }));
      },
    );
  });

  const route = jsonRoutes(app, ['brand_kit']);
  route.user(
    'get',
    '/api/brand_kit/list',
    {
      summary: "The user's brand kits, oldest first, each logo as a signed link",
      data: z.array(BrandKit),
    },
    ({ userId }) => kits.list(userId),
  );
  route.user(
    'delete',
    '/api/brand_kit/:id',
    { summary: 'Delete a brand kit and its logo', params: IdInput, data: z.null() },
    async ({ userId, params }) => {
      await kits.delete(userId, params.id);
      return null;
    },
  );
}
