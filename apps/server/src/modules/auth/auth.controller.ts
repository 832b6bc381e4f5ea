import { AuthResult, LoginBody, SignupBody, UserInfo, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, currentUser, requireUser, tokenFromRequest } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  cookieSecure: 'auto' | 'true' | 'false';
  loginRateLimit: { max: number; timeWindow: number };
  /** Each account gets free credits: sign-ups are limited per client address too. */
  signupRateLimit?: { max: number; timeWindow: number };
}

export function registerAuthRoutes(app: App, options: AuthRoutesOptions) {
  const { auth } = options;

  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    const secure =
      options.cookieSecure === 'auto'
        ? request.protocol === 'https'
        : options.cookieSecure === 'true';
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: auth.sessionMaxAgeSeconds,
    });
  };

  app.post(
    '/api/auth/signup',
    {
      ...(options.signupRateLimit ? { config: { rateLimit: options.signupRateLimit } } : {}),
      schema: {
        tags: ['auth'],
        summary: 'Create an account on the free plan and start a session',
        body: SignupBody,
        response: { 200: envelopeOf(AuthResult) },
      },
    },
    async (request, reply) => {
      const result = await auth.signup(request.body);
      setSessionCookie(request, reply, result.token);
      return ok(result);
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: {
        rateLimit: {
          max: options.loginRateLimit.max,
          timeWindow: options.loginRateLimit.timeWindow,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Log in with email and password',
        body: LoginBody,
        response: { 200: envelopeOf(AuthResult) },
      },
    },
    async (request, reply) => {
      const result = await auth.login(request.body);
      setSessionCookie(request, reply, result.token);
      return ok(result);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request, reply) => {
      const token = tokenFromRequest(request);
      if (token) await auth.logout(token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return ok(null);
    },
  );

  app.post(
    '/api/auth/token',
    {
      preHandler: requireUser,
      schema: {
        tags: ['auth'],
        summary:
          'A single-use realtime ticket (valid one minute) for the STOMP CONNECT `token` header; the session token itself stays in its httpOnly cookie',
        response: { 200: envelopeOf(z.object({ token: z.string() })) },
      },
    },
    async (request) => ok({ token: await auth.createRealtimeTicket(request.sessionToken ?? '') }),
  );

  app.get(
    '/api/user/info',
    {
      preHandler: requireUser,
      schema: {
        tags: ['account'],
        summary: 'The signed-in user (spec §3 User info)',
        response: { 200: envelopeOf(UserInfo) },
      },
    },
    async (request) => ok(await auth.userInfo(currentUser(request).id)),
  );
}
