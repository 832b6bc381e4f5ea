import { placeLogo } from '@moments/domain/brand-kits';
import type {
  PlacedLogo,
  CaptionPreview,
  CaptionPreviewBody,
  SubtitleQuery,
  TranslationSupport,
} from '@moments/contract';
import { ExportOptions } from '@moments/contract';
import type { Translator } from '@moments/ai/translate';
import {
  CAPTION_TEMPLATES,
  installedCaptionFamilies,
  templateCaptionStyle,
} from '@moments/media/captions';
import type { FileUrls } from '../../storage/index.js';
import type { ExportRenderer } from '../exports/export-renderer.js';
import type { BrandKitsService } from '../brand-kits/brand-kits.service.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import { fileBaseName, type ExportsService } from '../exports/exports.service.js';
import {
  buildClipCaptions,
  captionFontUrl,
  captionPlacement,
  captionText,
} from './clip-captions.js';
import {
  bilingualCues,
  displayForLanguage,
  formatSubtitles,
  sourceCues,
  translationCues,
} from './subtitles.js';

/** Signed addresses of a task's video live this long; the result page asks again after. */
const FILE_URL_TTL_SEC = 6 * 3600;

/**
 * The clip editor's and the caption result page's captions (/api/captions): the preview,
 * subtitle files, templates and translation targets. A preview resolves the clip exactly as an
 * export does (ExportsService.resolveClip) and builds captions with the same function, so the
 * preview is the export.
 */
export class CaptionsService {
  constructor(
    private readonly tasks: Pick<TasksRepository, 'findOwned'>,
    private readonly fileUrls: FileUrls,
    private readonly translator: Translator,
    /** The exporter resolves the clip a request points at and knows its source's size. */
    private readonly clips: Pick<ExportsService, 'resolveClip' | 'sourceSize' | 'cutPlan'>,
    /** Captions take their box or outline from the export's framing plan. */
    private readonly framing: Pick<ExportRenderer['framing'], 'stored'>,
    /** Signs the links of brand kit logos the preview draws. */
    private readonly logos?: Pick<BrandKitsService, 'logoUrl'>,
  ) {}

  async preview(userId: string, body: CaptionPreviewBody): Promise<CaptionPreview> {
    const source = await this.clips.resolveClip(userId, undefined, body);
    const size =
      source.options.aspect === 'original'
        ? await this.clips.sourceSize(source.task)
        : { width: 0, height: 0 };
    // The export's captions get their place and a box or outline from its framing plan (when it
    // is known yet): the preview draws the same document.
    const framing = await this.framing.stored(source.task.mediaKey!, source.options);
    const captions = await buildClipCaptions(
      source.transcript,
      source.options,
      size,
      this.translator,
      undefined,
      captionPlacement(
        framing?.layout === 'scale' ? undefined : framing?.plan,
        source.options.captionPosition,
      ),
    );
    const cut = await this.clips.cutPlan(source);
    return {
      ass: captions.ass,
      width: captions.width,
      height: captions.height,
      start_ms: source.options.startMs,
      end_ms: source.options.endMs,
      removed: cut.removed.map((span) => ({ start_ms: span.startMs, end_ms: span.endMs })),
      duration_ms: cut.durationMs,
      words: captions.words.map((word) => ({
        text: word.text,
        start: word.startMs,
        end: word.endMs,
      })),
      fonts: captions.fonts.map((font) => ({
        family: font.family,
        url: captionFontUrl(font.file),
      })),
      logo: await this.placedLogo(source.options, captions),
    };
  }

  /** The kit's logo where the export puts it, for the editor to draw over the video. */
  private async placedLogo(
    options: Awaited<ReturnType<ExportsService['resolveClip']>>['options'],
    frame: { width: number; height: number },
  ): Promise<PlacedLogo | null> {
    const kit = options.brandKit;
    if (!kit?.logo || !this.logos) return null;
    const rect = placeLogo({
      frame,
      logo: kit.logo,
      position: kit.position,
      scale: kit.scale,
      platform: options.platform,
    });
    return {
      url: await this.logos.logoUrl(kit.logo.key),
      position: kit.position,
      opacity: kit.opacity,
      scale: kit.scale,
      ...rect,
    };
  }

  /**
   * A task's captions as a subtitle file: SRT or WebVTT cues timed to the words, or the
   * ASS document the export burns in; in the spoken language, the translation, or both.
   */
  async subtitles(
    userId: string,
    query: SubtitleQuery,
  ): Promise<{ body: string; contentType: string; fileName: string }> {
    const display = displayForLanguage(query.lang);
    const source = await this.clips.resolveClip(userId, 'ANIMATED_CAPTION_EXPORT', {
      task_id: query.task_id,
      options: ExportOptions.parse({
        aspect: 'original',
        caption_display: display,
        target_lang: query.target_lang,
        transcript_text: query.transcript_text,
        remove_fillers: query.remove_fillers,
      }),
    });
    const { options, transcript } = source;
    const base = `${fileBaseName(source.title)}.${query.lang === 'source' ? options.sourceLang : query.lang === 'target' ? options.targetLang : `${options.sourceLang}-${options.targetLang}`}`;
    if (query.format === 'ass') {
      const size = await this.clips.sourceSize(source.task);
      const captions = await buildClipCaptions(transcript, options, size, this.translator);
      return {
        body: captions.ass,
        contentType: 'text/x-ssa; charset=utf-8',
        fileName: `${base}.ass`,
      };
    }
    const { words, translationLines } = await captionText(transcript, options, this.translator);
    const lines = transcript.segments.map(({ startMs, endMs }) => ({ startMs, endMs }));
    const cues =
      query.lang === 'source'
        ? sourceCues(words, lines, transcript.language)
        : query.lang === 'target'
          ? translationCues(translationLines ?? [], options.targetLang ?? '')
          : bilingualCues(words, translationLines ?? [], transcript.language);
    return {
      body: formatSubtitles(cues, query.format),
      contentType:
        query.format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/vtt; charset=utf-8',
      fileName: `${base}.${query.format}`,
    };
  }

  /** A signed address of a DONE task's stored video, for the caption result page's player. */
  async taskMediaUrl(userId: string, taskId: unknown): Promise<{ url: string | null }> {
    const task = await this.tasks.findOwned(userId, taskId);
    if (!task.mediaKey) return { url: null };
    return {
      url: await this.fileUrls.signFileUrl(task.mediaKey, { expiresInSec: FILE_URL_TTL_SEC }),
    };
  }

  /** The target languages offered, and whether this install can translate into each. */
  translationSupport(): TranslationSupport {
    const engine = this.translator.engine ?? null;
    return {
      engine,
      languages: TRANSLATION_TARGETS.map(([code, name]) => ({
        code,
        name,
        available: engine !== null,
        note:
          engine === null
            ? `This server makes captions in the language spoken but cannot translate them into ${name} yet: translation needs a language model, which its operator can add (LLM_BASE_URL in the configuration docs).`
            : null,
      })),
    };
  }

  templates() {
    return CAPTION_TEMPLATES.map(({ id, name, description }) => ({
      id,
      name,
      description,
      style: templateCaptionStyle(id),
    }));
  }

  /** The caption font families installed here, with the scripts each draws. */
  fonts() {
    return installedCaptionFamilies();
  }
}

/** Target languages the result page offers (the spec's "100+ languages" need an LLM endpoint). */
const TRANSLATION_TARGETS: ReadonlyArray<readonly [string, string]> = [
  ['es', 'Spanish'],
  ['de', 'German'],
  ['fr', 'French'],
  ['zh', 'Chinese'],
  ['ar', 'Arabic'],
  ['pt', 'Portuguese'],
  ['it', 'Italian'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['ru', 'Russian'],
  ['hi', 'Hindi'],
  ['tr', 'Turkish'],
  ['nl', 'Dutch'],
  ['pl', 'Polish'],
  ['id', 'Indonesian'],
  ['vi', 'Vietnamese'],
];
