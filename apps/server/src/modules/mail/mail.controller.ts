import {
  ERROR_CODES,
  MAIL_CATEGORY_LABELS,
  MailPreferenceUpdate,
  MailPreferences,
  UnsubscribeInfo,
  type UserMailCategory,
} from '@moments/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { UnsubscribeTokens } from './mailer.js';
import type { UsersRepository } from '../auth/users.repository.js';
import { isUserMailCategory, type MailPreferencesService } from './mail-preferences.service.js';

export interface MailRoutesOptions {
  preferences: MailPreferencesService;
  tokens: UnsubscribeTokens;
  users: UsersRepository;
}

const invalidLink = () =>
  new AppError(
    ERROR_CODES.INVALID_UNSUBSCRIBE_LINK,
    404,
    'This unsubscribe link is not valid. Use the link from the mail, or manage mail in Settings.',
  );

/** `ana@example.org` → `a**@example.org`: enough to recognise, not enough to harvest. */
const maskEmail = (email: string) => {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}${'*'.repeat(Math.max(2, name.length - 1))}@${domain}`;
};

export function registerMailRoutes(app: App, options: MailRoutesOptions) {
  const { preferences, tokens, users } = options;
  const TokenParams = z.object({ token: z.string().min(1).max(512) });

  const resolve = async (token: string) => {
    const claim = tokens.verify(token);
    if (!claim || !isUserMailCategory(claim.category)) throw invalidLink();
    const user = await users.findById(claim.userId);
    if (!user) throw invalidLink();
    return { user, category: claim.category };
  };
  // Reading a link and following it answer the same: what it stops, for whom, and whether.
  const unsubscribeRoute = (summary: string) => ({
    summary,
    params: TokenParams,
    data: UnsubscribeInfo,
    errors: [ERROR_CODES.INVALID_UNSUBSCRIBE_LINK],
  });
  const infoOf = (user: { email: string }, category: UserMailCategory, stopped: boolean) => ({
    category,
    label: MAIL_CATEGORY_LABELS[category],
    email: maskEmail(user.email),
    stopped,
  });

  jsonRoutes(app, ['mail']).open(
    'get',
    '/api/unsubscribe/:token',
    unsubscribeRoute(
      'What an unsubscribe link stops (no login: the signed token is the authority)',
    ),
    async ({ params }) => {
      const { user, category } = await resolve(params.token);
      return infoOf(user, category, await preferences.isStopped(user.id, category));
    },
  );

  // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` form-encoded; the page
  // posts JSON or nothing. Either way the body carries nothing we need.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    jsonRoutes(scope, ['mail']).open(
      'post',
      '/api/unsubscribe/:token',
      unsubscribeRoute('Stops the category of mail the link names (one-click, no login)'),
      async ({ params }) => {
        const { user, category } = await resolve(params.token);
        await preferences.setEnabled(user.id, category, false);
        return infoOf(user, category, true);
      },
    );
  });

  const route = jsonRoutes(app, ['mail']);
  route.user(
    'get',
    '/api/user/mail-preferences',
    { summary: 'Which categories of mail the user gets', data: MailPreferences },
    ({ userId }) => preferences.list(userId),
  );

  route.user(
    'put',
    '/api/user/mail-preferences',
    {
      summary: 'Turns one category of mail on or off',
      body: MailPreferenceUpdate,
      data: MailPreferences,
    },
    async ({ userId, body }) => {
      await preferences.setEnabled(userId, body.category, body.enabled);
      return preferences.list(userId);
    },
  );
}
