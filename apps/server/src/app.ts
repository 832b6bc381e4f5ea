import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/index.js';
import { tokenFromRequest } from './http/auth.js';
import { MAX_PARAM_LENGTH, installApiContract } from './http/contract.js';
import { installErrorHandler, rateLimitRefusal } from './http/error-handler.js';
import { answerClientError, answerFrameworkError } from './http/framework-errors.js';
import { documentComponents, documentOperation, serializeReply } from './http/openapi.js';
import { registerCsrfGuard, registerSecurityHeaders } from './http/security.js';
import { registerTextGuard } from './http/text-guard.js';
import { registerIdempotency } from './http/idempotency.js';
import { serveWebApp } from './http/static.js';
import type { App } from './http/types.js';
import { registerAuthRoutes } from './modules/auth/auth.controller.js';
import { registerAccountRoutes } from './modules/auth/account.controller.js';
import { registerBillingRoutes, registerCreditRoutes } from './modules/billing/index.js';
import { registerCaptionRoutes } from './modules/captions/captions.controller.js';
import { registerExportRoutes } from './modules/exports/exports.controller.js';
import { registerExportBatchRoutes } from './modules/export-batches/export-batches.controller.js';
import { registerMomentRoutes } from './modules/moments/moments.controller.js';
import { registerClipDraftRoutes } from './modules/clip-drafts/clip-drafts.controller.js';
import { registerNotificationRoutes } from './modules/notifications/notifications.controller.js';
import { registerSearchRoutes } from './modules/search/index.js';
import { APP_VERSION, registerSystemRoutes } from './modules/system/system.controller.js';
import { registerTaskRoutes } from './modules/tasks/tasks.controller.js';
import { registerVideoRoutes } from './modules/video/video.controller.js';
import { VideoService } from './modules/video/video.service.js';
import { registerUploadRoutes } from './modules/uploads/index.js';
import { registerNoteRoutes } from './modules/notes/notes.controller.js';
import { registerShareRoutes } from './modules/shares/shares.controller.js';
import { registerSummaryRoutes } from './modules/summaries/summaries.controller.js';
import { registerThumbnailRoutes } from './modules/thumbnails/thumbnails.controller.js';
import { publicUrlOf } from './config/index.js';
import type { Services } from './services.js';
import { registerFeedbackRoutes } from './modules/feedback/feedback.controller.js';
import { registerInviteRoutes } from './modules/invites/index.js';
import { registerMailRoutes } from './modules/mail/index.js';
import { registerMcpRoutes } from './modules/mcp/mcp.controller.js';
import { registerFileRoutes } from './storage/index.js';
import { registerApiTokenRoutes } from './modules/api-tokens/api-tokens.controller.js';
import { isApiToken } from './modules/api-tokens/api-tokens.service.js';
import { registerBrandKitRoutes } from './modules/brand-kits/brand-kits.controller.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.controller.js';

/** Assembles the HTTP API: plugins, auth hook, error envelope, routes, OpenAPI and the web app. */
export async function buildHttpApp(config: AppConfig, services: Services): Promise<App> {
  const app = createFastify(config, services);
  // First, so every route (plugins' too) gets its documented errors and its path is known for 405.
  const contract = installApiContract(app, { strict: config.NODE_ENV === 'test' });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializeReply);
  installErrorHandler(app, contract);
  registerTextGuard(app);

  await installPlugins(app, config);
  installSessionHook(app, services);
  installApiTokenRateLimit(app, config);
  registerIdempotency(app, services.idempotencyKeys);
  await registerRoutes(app, config, services);

  await serveWebApp(app, config.WEB_DIST_DIR, contract);
  return app;
}

function createFastify(config: AppConfig, services: Services): App {
  return Fastify({
    // One logger for requests and jobs (services.log), so both land in the same stream.
    loggerInstance: services.log as FastifyBaseLogger,
    // Forwarded headers are believed only from the proxies the operator named.
    trustProxy:
      typeof config.TRUST_PROXY === 'number' ? hopsTrusted(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A `__proto__` or `constructor` key is dropped, not refused: extra keys are ignored anyway.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors before a route is found answer in the envelope too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
}

/** Cookies, security headers, the CSRF guard, rate limits and the OpenAPI document. */
async function installPlugins(app: App, config: AppConfig) {
  await app.register(cookie);
  await registerSecurityHeaders(app);
  registerCsrfGuard(app, { publicUrl: config.PUBLIC_URL });
  await app.register(rateLimit, { global: false, errorResponseBuilder: rateLimitRefusal });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Moments API',
        version: APP_VERSION,
        description:
          'Every reply is the envelope { code, message, data }: code 0 on success, a stable string code on error.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'moments_session' },
        },
      },
    },
    transform: documentOperation,
    transformObject: documentComponents,
  });
}

/** Sets `request.user` from the session cookie or bearer token, when it is valid. */
function installSessionHook(app: App, services: Services) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('apiToken', null);
  app.addHook('onRequest', async (request) => {
    const token = tokenFromRequest(request);
    if (!token) return;
    if (isApiToken(token)) {
      const identity = await services.apiTokens.authenticate(token);
      if (identity) {
        request.user = { id: identity.userId };
        request.apiToken = { tokenId: identity.tokenId, scopes: identity.scopes };
      }
      return;
    }
    const session = await services.auth.authenticate(token);
    if (session) {
      request.user = { id: session.userId };
      request.sessionToken = token;
    }
  });
}

/**
 * Each personal API token has its own request budget on the signed-in routes (sessions are
 * people at a screen and are not counted).
 */
function installApiTokenRateLimit(app: App, config: AppConfig) {
  app.addHook(
    'preHandler',
    app.rateLimit({
      max: config.API_TOKEN_RATE_LIMIT_MAX,
      timeWindow: config.API_TOKEN_RATE_LIMIT_WINDOW_MS,
      keyGenerator: (request) => `api-token:${request.apiToken?.tokenId ?? ''}`,
      allowList: (request) => !request.apiToken || !request.routeOptions.config?.signedIn,
    }),
  );
}

/** Every feature's routes, in the order the OpenAPI document lists them. */
async function registerRoutes(app: App, config: AppConfig, services: Services) {
  // Forms anyone may post without an account: limited per client address.
  const formRateLimit = {
    max: config.FORM_RATE_LIMIT_MAX,
    timeWindow: config.FORM_RATE_LIMIT_WINDOW_MS,
  };
  registerSystemRoutes(app, services.feedback, formRateLimit);
  registerAuthRoutes(app, {
    auth: services.auth,
    cookieSecure: config.COOKIE_SECURE,
    loginRateLimit: {
      max: config.LOGIN_RATE_LIMIT_MAX,
      timeWindow: config.LOGIN_RATE_LIMIT_WINDOW_MS,
    },
    signupRateLimit: {
      max: config.SIGNUP_RATE_LIMIT_MAX,
      timeWindow: config.SIGNUP_RATE_LIMIT_WINDOW_MS,
    },
  });

  registerAccountRoutes(app, {
    account: services.account,
    passwordRateLimit: {
      max: config.LOGIN_RATE_LIMIT_MAX,
      timeWindow: config.LOGIN_RATE_LIMIT_WINDOW_MS,
    },
  });

  registerVideoRoutes(
    app,
    new VideoService(services.media, services.thumbnails, config.MEDIA_FETCH_ALLOW_HOSTS),
  );
  registerTaskRoutes(app, services.tasks);
  registerNotificationRoutes(app, services.notifications);
  registerMomentRoutes(app, services.moments, { storage: services.storage });
  registerClipDraftRoutes(app, services.clipDrafts);
  registerSearchRoutes(app, services.search);
  // Before the single export routes: /api/job/batch is not a job id.
  registerExportBatchRoutes(app, { batches: services.exportBatches, storage: services.storage });
  registerExportRoutes(app, services.exports);
  registerCaptionRoutes(app, { captions: services.captions, exports: services.exports });
  registerFileRoutes(app, { storage: services.storage, fileUrls: services.fileUrls });
  registerThumbnailRoutes(app, {
    thumbnails: services.thumbnails,
    storage: services.storage,
    pictureTokens: services.pictureTokens,
  });
  await registerUploadRoutes(app, {
    config,
    uploads: services.uploads,
    uploadLimits: services.uploadLimits,
    workRoot: services.workRoot,
    uploadStarted: () => services.transcription.warmAhead(),
  });

  registerBillingRoutes(app, {
    billing: services.billing,
    // Never the request's Host header: return and invoice links point at this server only.
    publicUrl: publicUrlOf(config),
    off: config.BILLING === 'off',
  });
  registerCreditRoutes(app, { reads: services.billing.reads });
  registerSummaryRoutes(app, services.summaries);
  registerNoteRoutes(app, services.notes);
  registerShareRoutes(app, {
    shares: services.shares,
    clips: services.clipShares,
    storage: services.storage,
    webDistDir: config.WEB_DIST_DIR,
    publicUrl: publicUrlOf(config),
  });
  // Invites, mail preferences and unsubscribe links, help feedback
  registerInviteRoutes(app, services.referrals);
  registerMailRoutes(app, {
    preferences: services.mailPreferences,
    tokens: services.unsubscribeTokens,
    users: services.users,
  });
  registerApiTokenRoutes(app, services.apiTokens);
  registerWebhookRoutes(app, services.webhooks);
  await registerBrandKitRoutes(app, services.brandKits);
  registerFeedbackRoutes(app, services, {
    operatorEmail: config.OPERATOR_EMAIL,
    rateLimit: formRateLimit,
  });
  // Agents: the MCP tools, calling the routes above with the agent's own token.
  registerMcpRoutes(app, { publicUrl: config.PUBLIC_URL, version: APP_VERSION });
}

/** `TRUST_PROXY=<n>`: believe the nearest n proxies' forwarded headers. */
function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
