export { AccountMails } from './account-mails.js';
export { registerMailRoutes } from './mail.controller.js';
export { MailPreferencesService } from './mail-preferences.service.js';
export { MailPreferencesRepository } from './mail-preferences.repository.js';
export { UserMailer } from './user-mailer.js';
export { QueuedMailer } from './queued-mailer.js';
export * from './mailer.js';
