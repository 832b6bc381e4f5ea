import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CaptionStyle,
  ERROR_CODES,
  type BrandKit,
  type BrandKitFields,
  type LogoPosition,
} from '@moments/contract';
import { brandKitLimit } from '@moments/domain/plans';
import { AppError } from '../../http/errors.js';
import type { FileUrls, Storage } from '../../storage/index.js';
import type { BrandKitRow, BrandKitsRepository } from './brand-kits.repository.js';
import { readLogo } from './logo-image.js';
import type { MediaRepository } from '../media/media.repository.js';
import { assertFontInstalled } from '../exports/exports.service.js';
import type { CreditReads } from '../billing/index.js';

/** Signed logo links live this long; the list is read again when the editor opens. */
const LOGO_URL_TTL_SEC = 6 * 3600;

/** A kit as a clip's export uses it (kept in the job's options, so a later edit changes nothing). */
export interface ResolvedBrandKit {
  id: string;
  logo: { key: string; width: number; height: number } | null;
  position: LogoPosition;
  opacity: number;
  scale: number;
  style: CaptionStyle;
  introText: string | null;
  outroText: string | null;
}

/** A change to a kit: the fields sent, and the logo replaced (bytes), removed (null) or kept. */
export interface BrandKitChange {
  fields: Partial<BrandKitFields>;
  logo?: Buffer | null;
}

export interface BrandKitsServiceOptions {
  /** The user's plan, which says how many kits they keep. */
  plans: Pick<CreditReads, 'planOf'>;
  repo: BrandKitsRepository;
  storage: Storage;
  fileUrls: FileUrls;
  /** Where logos are decoded before they are stored. */
  workRoot: string;
  /** Decodes logos (ffmpeg). */
  media: Pick<MediaRepository, 'logoImage'>;
}

const logoKeyOf = (userId: string, kitId: string) =>
  `users/${userId}/brand-kits/${kitId}-${randomBytes(6).toString('hex')}.png`;

/**
 * Brand kits: a logo, a caption style and intro/outro cards a user applies to clips as one. The
 * plan says how many a user keeps (BRAND_KITS); logos are checked and turned into PNGs before
 * anything is stored, so a refused upload leaves no row and no file.
 */
export class BrandKitsService {
  constructor(private readonly deps: BrandKitsServiceOptions) {}

  /** Refuses a new kit over the plan's limit, before the upload is read. */
  async assertCanCreate(userId: string): Promise<void> {
    const limit = brandKitLimit(await this.deps.plans.planOf(userId));
    if (limit !== -1 && (await this.deps.repo.countOf(userId)) >= limit) {
      throw new AppError(
        ERROR_CODES.BRAND_KIT_LIMIT_REACHED,
        409,
        `Your plan keeps ${limit} brand kit${limit === 1 ? '' : 's'}. Delete one or upgrade your plan to add another.`,
        { limit },
      );
    }
  }

  async assertOwned(userId: string, id: unknown): Promise<void> {
    await this.deps.repo.owned(userId, id);
  }

  async create(
    userId: string,
    fields: BrandKitFields,
    logo: Buffer | null,
  ): Promise<{ id: string }> {
    await this.assertCanCreate(userId);
    // A kit's style is what its clips are exported with: a font not installed is refused now.
    assertFontInstalled(fields.style.font_family);
    const id = crypto.randomUUID();
    const stored = logo ? await this.storeLogo(userId, id, logo) : null;
    try {
      const row = await this.deps.repo.insert({
        id,
        userId,
        name: fields.name,
        logoKey: stored?.key ?? null,
        logoWidth: stored?.width ?? null,
        logoHeight: stored?.height ?? null,
        logoPosition: fields.logo_position,
        logoOpacity: fields.logo_opacity,
        logoScale: fields.logo_scale,
        style: fields.style,
        introText: fields.intro_text,
        outroText: fields.outro_text,
      });
      return { id: row.id };
    } catch (error) {
      if (stored) await this.deps.storage.delete(stored.key);
      throw error;
    }
  }

  async list(userId: string): Promise<BrandKit[]> {
    const rows = await this.deps.repo.listOf(userId);
    return Promise.all(rows.map((row) => this.toDto(row)));
  }

  async update(userId: string, id: unknown, change: BrandKitChange): Promise<BrandKit> {
    const row = await this.deps.repo.owned(userId, id);
    assertFontInstalled(change.fields.style?.font_family);
    const stored =
      change.logo instanceof Buffer ? await this.storeLogo(userId, row.id, change.logo) : undefined;
    const { fields } = change;
    try {
      const saved = await this.deps.repo.update(row.id, {
        ...(fields.name !== undefined && { name: fields.name }),
        ...(fields.logo_position !== undefined && { logoPosition: fields.logo_position }),
        ...(fields.logo_opacity !== undefined && { logoOpacity: fields.logo_opacity }),
        ...(fields.logo_scale !== undefined && { logoScale: fields.logo_scale }),
        ...(fields.style !== undefined && { style: fields.style }),
        ...(fields.intro_text !== undefined && { introText: fields.intro_text }),
        ...(fields.outro_text !== undefined && { outroText: fields.outro_text }),
        ...(change.logo !== undefined && {
          logoKey: stored?.key ?? null,
          logoWidth: stored?.width ?? null,
          logoHeight: stored?.height ?? null,
        }),
      });
      if (change.logo !== undefined && row.logoKey) await this.deps.storage.delete(row.logoKey);
      return this.toDto(saved);
    } catch (error) {
      if (stored) await this.deps.storage.delete(stored.key);
      throw error;
    }
  }

  async delete(userId: string, id: unknown): Promise<void> {
    const row = await this.deps.repo.owned(userId, id);
    await this.deps.repo.delete(row.id);
    if (row.logoKey) await this.deps.storage.delete(row.logoKey);
  }

  /** The kit a preview or an export names (another user's is NOT_FOUND), marked as used. */
  async resolveForClip(userId: string, id: string): Promise<ResolvedBrandKit> {
    const row = await this.deps.repo.owned(userId, id);
    await this.deps.repo.markUsed(row.id);
    return {
      id: row.id,
      logo:
        row.logoKey && row.logoWidth && row.logoHeight
          ? { key: row.logoKey, width: row.logoWidth, height: row.logoHeight }
          : null,
      position: row.logoPosition as LogoPosition,
      opacity: row.logoOpacity,
      scale: row.logoScale,
      style: styleOf(row),
      introText: row.introText,
      outroText: row.outroText,
    };
  }

  /** A signed link to a stored logo. */
  logoUrl(key: string): Promise<string> {
    return this.deps.fileUrls.signFileUrl(key, { expiresInSec: LOGO_URL_TTL_SEC });
  }

  private async storeLogo(userId: string, kitId: string, bytes: Buffer) {
    const workDir = path.join(this.deps.workRoot, 'logos');
    const image = await readLogo(bytes, workDir, this.deps.media);
    const key = logoKeyOf(userId, kitId);
    try {
      await this.deps.storage.putFile(key, image.file, { move: true });
    } finally {
      await fs.rm(image.file, { force: true });
    }
    return { key, width: image.width, height: image.height };
  }

  private async toDto(row: BrandKitRow): Promise<BrandKit> {
    return {
      id: row.id,
      name: row.name,
      logo_url: row.logoKey ? await this.logoUrl(row.logoKey) : null,
      logo_position: row.logoPosition as LogoPosition,
      logo_opacity: row.logoOpacity,
      logo_scale: row.logoScale,
      style: styleOf(row),
      intro_text: row.introText,
      outro_text: row.outroText,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
    };
  }
}

/** A stored style that no longer reads as today's (a field since removed) counts as none. */
function styleOf(row: BrandKitRow): CaptionStyle {
  const parsed = CaptionStyle.safeParse(row.style);
  return parsed.success ? parsed.data : {};
}
