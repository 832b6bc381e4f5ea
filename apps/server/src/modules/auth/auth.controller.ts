import { AuthResult, ERROR_CODES, LoginBody, SignupBody, UserInfo } from '@moments/contract';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, tokenFromRequest } from '../../http/auth.js';
import { jsonRoutes } from '../../http/route.js';
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
  const route = jsonRoutes(app, ['auth']);

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
  }; /** Signing up and logging in both answer the new session and set its cookie. */
  const startSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    started: Promise<AuthResult>,
  ) => {
    const result = await started;
    setSessionCookie(request, reply, result.token);
    return result;
  };

  route.open(
    'post',
    '/api/auth/signup',
    {
      summary: 'Create an account on the free plan and start a session',
      body: SignupBody,
      data: AuthResult,
      errors: [ERROR_CODES.EMAIL_TAKEN, ERROR_CODES.WEAK_PASSWORD],
      ...(options.signupRateLimit ? { config: { rateLimit: options.signupRateLimit } } : {}),
    },
    ({ body, request, reply }) => startSession(request, reply, auth.signup(body)),
  );

  route.open(
    'post',
    '/api/auth/login',
    {
      summary: 'Log in with email and password',
      body: LoginBody,
      data: AuthResult,
      errors: [ERROR_CODES.INVALID_CREDENTIALS],
      config: {
        rateLimit: {
          max: options.loginRateLimit.max,
          timeWindow: options.loginRateLimit.timeWindow,
        },
      },
    },
    ({ body, request, reply }) => startSession(request, reply, auth.login(body)),
  );

  route.open(
    'post',
    '/api/auth/logout',
    { summary: 'End the current session', data: z.null() },
    async ({ request, reply }) => {
      const token = tokenFromRequest(request);
      if (token) await auth.logout(token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return null;
    },
  );

  route.user(
    'post',
    '/api/auth/token',
    {
      summary:
        'A single-use realtime ticket (valid one minute) for the STOMP CONNECT `token` header; the session token itself stays in its httpOnly cookie',
      data: z.object({ token: z.string() }),
    },
    async ({ request }) => ({
      token: await auth.createRealtimeTicket(request.sessionToken ?? ''),
    }),
  );

  jsonRoutes(app, ['account']).user(
    'get',
    '/api/user/info',
    { summary: 'The signed-in user', data: UserInfo },
    ({ userId }) => auth.userInfo(userId),
  );

  route.open(
    'get',
    '/api/auth/session',
    {
      summary:
        'The signed-in user, or null for a visitor: 200 either way, so an anonymous page load logs no failed request',
      data: UserInfo.nullable(),
    },
    async ({ userId }) => (userId ? await auth.userInfo(userId) : null),
  );
}
