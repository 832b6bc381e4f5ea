import {
  ChangeEmailBody,
  ChangePasswordBody,
  ConfirmEmailBody,
  DeleteAccountBody,
  ERROR_CODES,
} from '@moments/contract';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../http/auth.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { AccountService } from './account.service.js';

export interface AccountRoutesOptions {
  account: AccountService;
  /** These routes check the password: limited like the login, so a left-open session cannot guess it. */
  passwordRateLimit: { max: number; timeWindow: number };
}

/** Password and email changes and account deletion (the profile settings screen). */
export function registerAccountRoutes(app: App, options: AccountRoutesOptions) {
  const { account } = options;
  const route = jsonRoutes(app, ['account']);
  const rateLimit = { rateLimit: options.passwordRateLimit };

  route.user(
    'post',
    '/api/user/change_password',
    {
      summary:
        'Change the password (the current one is asked); every other session ends, this one stays',
      body: ChangePasswordBody,
      data: z.null(),
      errors: [ERROR_CODES.WRONG_PASSWORD, ERROR_CODES.WEAK_PASSWORD],
      config: rateLimit,
    },
    ({ userId, body, request }) => account.changePassword(userId, request.sessionToken ?? '', body),
  );

  route.user(
    'post',
    '/api/user/change_email',
    {
      summary:
        'Ask to change the email: a single-use link (24 hours) goes to the new address, and the email changes when it is opened',
      body: ChangeEmailBody,
      data: z.object({ email: z.string() }),
      errors: [ERROR_CODES.WRONG_PASSWORD, ERROR_CODES.EMAIL_TAKEN, ERROR_CODES.INVALID_INPUT],
      config: rateLimit,
    },
    ({ userId, body }) => account.requestEmailChange(userId, body),
  );

  route.open(
    'post',
    '/api/user/confirm_email',
    {
      summary: 'Open a mailed email-change link: the account takes the new address',
      body: ConfirmEmailBody,
      data: z.object({ email: z.string() }),
      errors: [
        ERROR_CODES.NOT_FOUND,
        ERROR_CODES.EMAIL_LINK_USED,
        ERROR_CODES.EMAIL_LINK_EXPIRED,
        ERROR_CODES.EMAIL_TAKEN,
      ],
      config: rateLimit,
    },
    ({ body }) => account.confirmEmailChange(body.token),
  );

  route.user(
    'post',
    '/api/user/delete_account',
    {
      summary:
        'Delete the account with its files (local or S3) and sessions; the credit ledger stays, anonymised',
      body: DeleteAccountBody,
      data: z.null(),
      errors: [ERROR_CODES.WRONG_PASSWORD, ERROR_CODES.SUBSCRIPTION_ACTIVE],
      config: rateLimit,
    },
    async ({ userId, body, reply }) => {
      await account.deleteAccount(userId, body.password);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return null;
    },
  );
}
