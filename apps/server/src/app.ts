import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppConfig } from './config/index.js';
import { tokenFromRequest } from './http/auth.js';
import { installErrorHandler } from './http/error-handler.js';
import { registerCsrfGuard, registerSecurityHeaders } from './http/security.js';
import { serveWebApp } from './http/static.js';
import type { App } from './http/types.js';
import { registerAuthRoutes } from './modules/auth/auth.controller.js';
import { registerBillingRoutes } from './modules/billing/index.js';
import { registerExportRoutes } from './modules/exports/exports.controller.js';
import { registerMomentRoutes } from './modules/moments/moments.controller.js';
import { registerNotificationRoutes } from './modules/notifications/notifications.controller.js';
import { registerSearchRoutes } from './modules/search/index.js';
import { APP_VERSION, registerSystemRoutes } from './modules/system/system.controller.js';
import { registerTaskRoutes } from './modules/tasks/tasks.controller.js';
import { registerVideoRoutes } from './modules/video/video.controller.js';
import { registerUploadRoutes } from './modules/uploads/index.js';
import { registerNoteRoutes } from './modules/notes/notes.controller.js';
import { registerShareRoutes } from './modules/shares/shares.controller.js';
import { registerSummaryRoutes } from './modules/summaries/summaries.controller.js';
import type { Services } from './services.js';
import { registerFeedbackRoutes } from './modules/feedback/feedback.controller.js';
import { registerInviteRoutes } from './modules/invites/index.js';
import { registerMailRoutes } from './modules/mail/index.js';
import { registerFileRoutes } from './storage/index.js';

/** Assembles the HTTP API: plugins, auth hook, error envelope, routes, OpenAPI and the web app. */
export async function buildHttpApp(config: AppConfig, services: Services): Promise<App> {
  const app = Fastify({
    // One logger for requests and jobs (services.log), so both land in the same stream.
    loggerInstance: services.log as FastifyBaseLogger,
    // Forwarded headers are believed only from the proxies the operator named (defect 15).
    trustProxy:
      typeof config.TRUST_PROXY === 'number' ? hopsTrusted(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  await app.register(cookie);
  await registerSecurityHeaders(app);
  registerCsrfGuard(app, { publicUrl: config.PUBLIC_URL });
  await app.register(rateLimit, { global: false });
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
    transform: jsonSchemaTransform,
  });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (request) => {
    const token = tokenFromRequest(request);
    if (!token) return;
    const session = await services.auth.authenticate(token);
    if (session) {
      request.user = { id: session.userId };
      request.sessionToken = token;
    }
  });

  registerSystemRoutes(app, services.database.db);
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

  registerVideoRoutes(app, { allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS });
  registerTaskRoutes(app, services.tasks);
  registerNotificationRoutes(app, services.notifications);
  registerMomentRoutes(app, services.moments, { storage: services.storage });
  registerSearchRoutes(app, services.search);
  registerExportRoutes(app, services.exports);
  registerFileRoutes(app, { storage: services.storage, fileUrls: services.fileUrls });
  await registerUploadRoutes(app, {
    config,
    db: services.database.db,
    storage: services.storage,
    fileUrls: services.fileUrls,
  });

  registerBillingRoutes(app, {
    billing: services.billing,
    publicUrl: config.PUBLIC_URL,
    stripeWebhook: services.stripeWebhook,
  });
  registerSummaryRoutes(app, services.summaries);
  registerNoteRoutes(app, services.notes);
  registerShareRoutes(app, services.shares, config.WEB_DIST_DIR);
  // issue 10 items 4, 5, 7
  registerInviteRoutes(app, services.referrals);
  registerMailRoutes(app, {
    preferences: services.mailPreferences,
    tokens: services.unsubscribeTokens,
    users: services.users,
  });
  registerFeedbackRoutes(app, {
    db: services.database.db,
    users: services.users,
    mailer: services.mailer,
    operatorEmail: config.OPERATOR_EMAIL,
  });

  await serveWebApp(app, config.WEB_DIST_DIR);
  return app;
}

/** `TRUST_PROXY=<n>`: believe the nearest n proxies' forwarded headers. */
function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
