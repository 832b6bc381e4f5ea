import {
  MAIL_CATEGORY_LABELS,
  USER_MAIL_CATEGORIES,
  type MailPreferences,
  type UserMailCategory,
} from '@moments/contract';
import type { MailPreferencesRepository } from './mail-preferences.repository.js';

export const isUserMailCategory = (value: string): value is UserMailCategory =>
  (USER_MAIL_CATEGORIES as readonly string[]).includes(value);

/** Which categories of mail a user stopped; every category is on until the user stops it. */
export class MailPreferencesService {
  constructor(private readonly repo: MailPreferencesRepository) {}

  async isStopped(userId: string, category: string): Promise<boolean> {
    return this.repo.isStopped(userId, category);
  }

  async setEnabled(userId: string, category: UserMailCategory, enabled: boolean): Promise<void> {
    if (enabled) await this.repo.resume(userId, category);
    else await this.repo.stop(userId, category);
  }

  async list(userId: string): Promise<MailPreferences> {
    const stopped = new Set(await this.repo.stoppedCategories(userId));
    return {
      categories: USER_MAIL_CATEGORIES.map((category) => ({
        category,
        label: MAIL_CATEGORY_LABELS[category],
        enabled: !stopped.has(category),
      })),
    };
  }
}
