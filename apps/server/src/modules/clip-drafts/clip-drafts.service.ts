import { assertFontInstalled } from '../exports/exports.service.js';
import { ClipSettings, ERROR_CODES, type ClipDraft } from '@moments/contract';
import { isCaptionTemplateId } from '@moments/media/captions';
import { AppError } from '../../http/errors.js';
import type { MomentsRepository } from '../moments/moments.repository.js';
import type { BrandKitsRepository } from '../brand-kits/brand-kits.repository.js';
import type { ClipDraftRow, ClipDraftsRepository } from './clip-drafts.repository.js';

/**
 * A stored draft as the client reads it; null for one that no longer reads as today's settings
 * (saved before a setting was added), which the editor then opens from its defaults.
 */
function toDraft(row: ClipDraftRow): ClipDraft | null {
  const settings = ClipSettings.safeParse(row.settings);
  if (!settings.success) return null;
  return { moment_id: row.momentId, settings: settings.data, updated_at: row.updatedAt.getTime() };
}

/**
 * The clip editor's drafts: the settings of a moment's clip as its owner last left them (another
 * user's moment answers not-found, as every moment call does). A draft is checked as an export
 * would check it where that needs no video (the template, the trim's order), so what is restored
 * can be exported; whether the trim fits the plan is the export's own question.
 */
export class ClipDraftsService {
  constructor(
    private readonly moments: Pick<MomentsRepository, 'findOwned'>,
    private readonly repo: ClipDraftsRepository,
    private readonly kits: Pick<BrandKitsRepository, 'owned'>,
  ) {}

  async get(userId: string, momentId: unknown): Promise<ClipDraft | null> {
    const moment = await this.moments.findOwned(userId, momentId);
    const row = await this.repo.find(userId, moment.id);
    return row ? toDraft(row) : null;
  }

  async save(userId: string, momentId: unknown, settings: ClipSettings): Promise<ClipDraft> {
    const moment = await this.moments.findOwned(userId, momentId);
    if (!isCaptionTemplateId(settings.template)) {
      throw new AppError(
        ERROR_CODES.UNKNOWN_TEMPLATE,
        422,
        `Unknown caption template "${settings.template}".`,
      );
    }
    assertFontInstalled(settings.style?.font_family);
    // Another user's kit is not found, as in an export: a draft only names the user's own.
    if (settings.brand_kit_id) {
      await this.kits.owned(userId, settings.brand_kit_id);
    }
    if (settings.end_ms <= settings.start_ms) {
      throw new AppError(ERROR_CODES.INVALID_RANGE, 422, 'The clip must start before it ends.');
    }
    const saved = toDraft(await this.repo.save(userId, moment.id, settings));
    if (!saved) throw new Error(`clip draft of moment ${moment.id} does not read back`);
    return saved;
  }
}
