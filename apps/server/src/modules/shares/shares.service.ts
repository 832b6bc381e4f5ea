import type { SharedPage } from '@moments/contract';
import { notFound } from '../../http/errors.js';
import type { NotesService } from '../notes/notes.service.js';
import { noteDto } from '../notes/notes.service.js';
import { plainTextOf } from '../notes/note-html.js';
import { summaryDto, type SummariesService } from '../summaries/summaries.service.js';

/** What a link preview shows (Open Graph). */
export interface PreviewTags {
  title: string;
  description: string;
  image?: string;
}

const SHARE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Public read-only pages /s/{id} (a summary) and /s/{id}?note=1 (a note): unlisted links, revocable. */
export class SharesService {
  constructor(
    private readonly summaries: SummariesService,
    private readonly notes: NotesService,
  ) {}

  async page(shareId: string, note: boolean): Promise<SharedPage> {
    if (!SHARE_ID.test(shareId)) throw notFound('Shared page');
    if (note) {
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
  async preview(shareId: string, note: boolean): Promise<PreviewTags | undefined> {
    const page = await this.page(shareId, note).catch(() => undefined);
    if (!page) return undefined;
    if (page.kind === 'note')
      return { title: page.title, description: plainTextOf(page.note.content_html).slice(0, 200) };
    return {
      title: `Summary: ${page.title}`,
      description: page.summary.overview.slice(0, 200),
      image: page.video.thumbnail || undefined,
    };
  }
}
