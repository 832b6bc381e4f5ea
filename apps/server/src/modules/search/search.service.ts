import { storedSegments } from '@moments/domain/transcript';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  ERROR_CODES,
  SEARCH_PAGE_SIZE,
  VideoMeta as VideoMetaSchema,
  type SearchHit,
  type SearchVideosReply,
} from '@moments/contract';
import { AppError } from '../../http/errors.js';
import type { SearchRepository } from './search.repository.js';
import { bestSnippet, queryWords, type Passage } from './snippets.js';

export interface SearchRequest {
  query: string;
  num?: number;
  search_id?: string;
}

/** What a cursor binds: the page offset, to one query and one requester. */
interface CursorState {
  v: 1;
  offset: number;
  query: string;
  user: string;
}

const invalidCursor = () =>
  new AppError(
    ERROR_CODES.VALIDATION_FAILED,
    400,
    'This search_id does not belong to this search; search again from the first page',
  );

/** The same query however it was spaced or cased gets the same cursor. */
const normalise = (query: string) => query.trim().replace(/\s+/g, ' ').toLowerCase();

const cursorState = (offset: number, query: string, userId: string | null): CursorState => ({
  v: 1,
  offset,
  query: createHash('sha256').update(normalise(query)).digest('base64url').slice(0, 22),
  user: userId ?? '',
});

/**
 * The home search (spec §7 searchVideos, §9 24 per request): shared moments for everyone, plus
 * the requester's own videos and moments. `search_id` is an HMAC-signed cursor bound to the query
 * and the requester, so a forged or borrowed one is refused instead of paging someone else's view.
 */
export class SearchService {
  private readonly cursorKey: Buffer;

  constructor(
    private readonly repo: SearchRepository,
    appSecret: Buffer,
  ) {
    this.cursorKey = createHmac('sha256', appSecret).update('search-cursor/v1').digest();
  }

  async search(userId: string | null, request: SearchRequest): Promise<SearchVideosReply> {
    const num = request.num ?? SEARCH_PAGE_SIZE;
    const offset = request.search_id
      ? this.openCursor(request.search_id, request.query, userId)
      : 0;
    const words = queryWords(request.query);
    const ranked = await this.repo.rank({
      userId,
      query: request.query,
      fallbackWords: words,
      limit: num + 1,
      offset,
    });
    const page = ranked.slice(0, num);
    const momentIds = page.flatMap((hit) => (hit.momentId ? [hit.momentId] : []));
    const taskIds = page.flatMap((hit) => (hit.kind === 'task' ? [hit.taskId] : []));
    const [momentRows, taskRows] = await Promise.all([
      this.repo.momentsWithTasks(momentIds),
      this.repo.tasksWithTranscripts(taskIds),
    ]);
    const momentsById = new Map(momentRows.map((row) => [row.moment.id, row]));
    const tasksById = new Map(taskRows.map((row) => [row.task.id, row]));

    const items: SearchHit[] = [];
    for (const hit of page) {
      if (hit.momentId) {
        const row = momentsById.get(hit.momentId);
        if (!row) continue; // deleted between the two queries
        const { moment } = row;
        const snippet = bestSnippet(
          [
            { text: moment.description, startMs: moment.startMs },
            { text: moment.transcript, startMs: moment.startMs },
            { text: (moment.hashtags as string[]).join(' '), startMs: moment.startMs },
          ],
          words,
        );
        items.push({
          kind: 'moment',
          video: VideoMetaSchema.parse(row.video),
          task_id: moment.taskId,
          moment_id: moment.id,
          title: moment.title,
          snippet: snippet.text,
          start_ms: moment.startMs,
          score: moment.score,
        });
      } else {
        const row = tasksById.get(hit.taskId);
        if (!row) continue;
        const video = VideoMetaSchema.parse(row.task.video);
        const segments = storedSegments(row.segments);
        const passages: Passage[] = segments.map((segment) => ({
          text: segment.text,
          startMs: segment.startMs,
          words: segment.words,
        }));
        const snippet = bestSnippet(passages, words);
        items.push({
          kind: 'task',
          video,
          task_id: row.task.id,
          moment_id: null,
          title: video.title || row.task.query || 'Untitled video',
          snippet: snippet.text,
          start_ms: snippet.matched ? snippet.startMs : null,
          score: null,
        });
      }
    }
    return {
      search_id: this.makeCursor(offset + page.length, request.query, userId),
      items,
      has_more: ranked.length > num,
    };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.cursorKey).update(payload).digest('base64url');
  }

  private makeCursor(offset: number, query: string, userId: string | null): string {
    const state = cursorState(offset, query, userId);
    const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The offset a cursor points at, or a 400 when it was not made by us for this search. */
  private openCursor(cursor: string, query: string, userId: string | null): number {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalidCursor();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalidCursor();
    let state: CursorState;
    try {
      state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorState;
    } catch {
      throw invalidCursor();
    }
    const fresh = cursorState(0, query, userId);
    if (
      state.v !== 1 ||
      state.query !== fresh.query ||
      state.user !== fresh.user ||
      !Number.isSafeInteger(state.offset) ||
      state.offset < 0
    )
      throw invalidCursor();
    return state.offset;
  }
}
