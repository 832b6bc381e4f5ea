import type { SharedPage } from '@moments/contract';
import { notFound } from '../../http/errors.js';
import type { MomentsService } from '../moments/moments.service.js';
import type { NotesService } from '../notes/notes.service.js';
import { noteDto } from '../notes/notes.service.js';
import { plainTextOf } from '../notes/note-html.js';
import { summaryDto, type SummariesService } from '../summaries/summaries.service.js';
import { sharedClipVideoPath, type ClipSharesService } from './clip-shares.service.js';

/** What a link preview shows (Open Graph); addresses may be relative to the site. */
export interface PreviewTags {
  title: string;
  description: string;
  image?: string;
  /** A playable MP4 (og:video), with its length in seconds and frame size when known. */
  video?: { url: string; durationSec?: number; width?: number; height?: number };
  /** The preview image's size (og:image:width/height), when known. */
  imageSize?: { width: number; height: number };
}

/**
 * What a shared clip is, for its link preview: its length, the video it was cut from and the
 * moment's own words ("A 42 s clip from “Kitchen show”: Let the dough rest overnight…").
 */
export function clipDescription(
  page: Pick<Extract<SharedPage, { kind: 'clip' }>, 'duration_ms' | 'video_title' | 'about'>,
): string {
  const seconds = page.duration_ms ? Math.round(page.duration_ms / 1000) : null;
  const clip = seconds ? `A ${seconds} s clip` : 'A clip';
  const from = page.video_title ? `${clip} from “${page.video_title}”` : clip;
  const text = page.about ? `${from}: ${page.about}` : `${from}, made with Moments.`;
  return text.length > 200 ? `${text.slice(0, 199).trimEnd()}…` : text;
}

/** Which kind of /s/ page: `?note=1` a note, `?clip=1` an exported clip, else a summary. */
export type SharedKind = 'summary' | 'note' | 'clip';

const SHARE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Public read-only pages /s/{id} (a summary), /s/{id}?note=1 (a note) and /s/{id}?clip=1 (an
 * exported clip): unlisted links, revocable; and the preview tags of them and of shared moments.
 */
export class SharesService {
  constructor(
    private readonly summaries: SummariesService,
    private readonly notes: NotesService,
    private readonly clips: ClipSharesService,
    private readonly moments: MomentsService,
  ) {}

  async page(shareId: string, kind: SharedKind): Promise<SharedPage> {
    if (!SHARE_ID.test(shareId)) throw notFound('Shared page');
    if (kind === 'clip') {
      const clip = await this.clips.shared(shareId);
      return {
        kind: 'clip',
        title: clip.title,
        duration_ms: clip.durationMs,
        video_url: sharedClipVideoPath(shareId),
        poster_url: clip.posterUrl,
        width: clip.width,
        height: clip.height,
        video_title: clip.videoTitle,
        about: clip.momentText ? clip.momentText.slice(0, 300) : null,
      };
    }
    if (kind === 'note') {
      const row = await this.notes.shared(shareId);
      if (!row) throw notFound('Shared page');
      const { share_id: _unused, ...dto } = noteDto(row);
      return { kind: 'note', title: row.title || 'Note', note: dto };
    }
    const shared = await this.summaries.shared(shareId);
    if (!shared) throw notFound('Shared page');
    const { share_id: _id, warnings: _w, ...summary } = summaryDto(shared.summary);
    return { kind: 'summary', title: shared.title, video: shared.video, summary };
  }

  /** Preview tags for the served HTML, or undefined when the link is not (or no longer) shared. */
  async preview(shareId: string, kind: SharedKind): Promise<PreviewTags | undefined> {
    // Not (or no longer) shared: the app is served without preview tags and shows the 404 itself.
    const page = await this.page(shareId, kind).catch(() => undefined);
    if (!page) return undefined;
    if (page.kind === 'clip') {
      const size = page.width && page.height ? { width: page.width, height: page.height } : null;
      return {
        title: page.title,
        description: clipDescription(page),
        image: page.poster_url ?? undefined,
        // The poster is a frame of the clip: the clip's own size.
        ...(size && page.poster_url ? { imageSize: size } : {}),
        video: {
          url: page.video_url,
          ...(page.duration_ms ? { durationSec: Math.round(page.duration_ms / 1000) } : {}),
          ...(size ?? {}),
        },
      };
    }
    if (page.kind === 'note')
      return { title: page.title, description: plainTextOf(page.note.content_html).slice(0, 200) };
    return {
      title: `Summary: ${page.title}`,
      description: page.summary.overview.slice(0, 200),
      image: page.video.thumbnail || undefined,
    };
  }

  /** Preview tags of a shared moment's page (/home/moment/{id}); undefined unless it is shared. */
  async momentPreview(momentId: string): Promise<PreviewTags | undefined> {
    // Not shared (404) or gone: the app is served without preview tags and shows the 404 itself.
    const view = await this.moments.view(null, momentId).catch(() => undefined);
    if (!view?.media_url) return undefined;
    return {
      title: view.title || 'Moment',
      description: (view.description || view.transcript).slice(0, 200),
      image: view.thumbnail ?? undefined,
      video: { url: view.media_url, durationSec: Math.round((view.end - view.start) / 1000) },
    };
  }
}
