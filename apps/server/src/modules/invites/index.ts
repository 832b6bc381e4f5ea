export { registerInviteRoutes } from './invites.controller.js';
export { ReferralsRepository } from './referrals.repository.js';
export { ReferralsService, type ReferralEvents } from './referrals.service.js';
