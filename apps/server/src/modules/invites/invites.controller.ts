import { InviteInfo, InviteLanding, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { ReferralsService } from './referrals.service.js';

export function registerInviteRoutes(app: App, referrals: ReferralsService) {
  app.get(
    '/api/invite/info',
    {
      preHandler: requireUser,
      schema: {
        tags: ['invites'],
        summary: "The user's referral link, the reward and how many friends joined (/invite)",
        response: { 200: envelopeOf(InviteInfo) },
      },
    },
    async (request) => ok(await referrals.info(currentUser(request).id)),
  );

  app.get(
    '/api/invite/landing',
    {
      schema: {
        tags: ['invites'],
        summary: 'What /invite/landing shows for a referral code (anonymous)',
        querystring: z.object({ ref: z.string().max(64).optional() }),
        response: { 200: envelopeOf(InviteLanding) },
      },
    },
    async (request) => ok(await referrals.landing(request.query.ref)),
  );
}
