export { registerInviteRoutes } from './invites.controller.js';
export { ReferralsRepository } from './referrals.repository.js';
export { ReferralsService } from './referrals.service.js';
