import { InviteInfo, InviteLanding } from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ReferralsService } from './referrals.service.js';

export function registerInviteRoutes(app: App, referrals: ReferralsService) {
  const route = jsonRoutes(app, ['invites']);
  route.user(
    'get',
    '/api/invite/info',
    {
      summary: "The user's referral link, the reward and how many friends joined (/invite)",
      data: InviteInfo,
    },
    ({ userId }) => referrals.info(userId),
  );

  route.open(
    'get',
    '/api/invite/landing',
    {
      summary: 'What /invite/landing shows for a referral code (anonymous)',
      querystring: z.object({ ref: z.string().max(64).optional() }),
      data: InviteLanding,
    },
    ({ query }) => referrals.landing(query.ref),
  );
}
