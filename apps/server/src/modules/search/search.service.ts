import { contentTerms } from '@moments/ai/search';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  ERROR_CODES,
  SEARCH_MOMENTS_PER_HIT,
  SEARCH_PAGE_SIZE,
  VideoMeta as VideoMetaSchema,
  type SearchHit,
  type SearchHitMoment,
  type SearchVideosReply,
} from '@moments/contract';
import { AppError } from '../../http/errors.js';
import { videoOfTask } from '../tasks/task-mapper.js';
import { momentThumbnail } from '../thumbnails/thumbnails.service.js';
import type { SearchRepository } from './search.repository.js';
import type { RankedHit, SearchRanking } from './search-ranking.js';
import {
  bestSnippet,
  clipSnippet,
  queryWords,
  splitSentences,
  type Passage,
  type Snippet,
} from './snippets.js';

/**
 * Hits of a page, found by meaning alone, whose answering sentence is picked by meaning too (it
 * embeds their sentences, about 1 ms each).
 */
const MEANING_SNIPPETS = 3;

export interface SearchRequest {
  query: string;
  num?: number;
  search_id?: string;
}

/** A video's results: its best match, and its other matching moments, best first. */
interface VideoGroup {
  best: RankedHit;
  moments: RankedHit[];
}

/** Two moments of one video sharing this much of the shorter one's time are one stretch. */
const SAME_STRETCH_SHARE = 0.6;

/**
 * Whether two moments of one video are the same moment to a reader: the same title (a question
 * task and a moment task title the same sentence alike, however they trim it), or mostly the same
 * stretch of the talk.
 */
function sameStretch(
  a: { startMs: number; endMs: number; title: string },
  b: { startMs: number; endMs: number; title: string },
): boolean {
  if (a.title.trim().toLowerCase() === b.title.trim().toLowerCase()) return true;
  const shared = Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs);
  const shorter = Math.min(a.endMs - a.startMs, b.endMs - b.startMs);
  return shorter > 0 && shared >= shorter * SAME_STRETCH_SHARE;
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
    ERROR_CODES.INVALID_INPUT,
    422,
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
 * The home search (searchVideos, 24 hits per request): shared moments for everyone, plus
 * the requester's own videos and moments. `search_id` is an HMAC-signed cursor bound to the query
 * and the requester, so a forged or borrowed one is refused instead of paging someone else's view.
 */
export class SearchService {
  private readonly cursorKey: Buffer;

  constructor(
    private readonly repo: SearchRepository,
    private readonly ranking: SearchRanking,
    appSecret: Buffer,
  ) {
    this.cursorKey = createHmac('sha256', appSecret).update('search-cursor/v1').digest();
  }

  async search(userId: string | null, request: SearchRequest): Promise<SearchVideosReply> {
    const num = request.num ?? SEARCH_PAGE_SIZE;
    const offset = request.search_id
      ? this.openCursor(request.search_id, request.query, userId)
      : 0;
    const ranked = await this.ranking.rank(userId, request.query);
    const groups = await this.byVideo(ranked);
    const page = groups.slice(offset, offset + num);
    const items = await this.hydrate(userId, page, request.query);
    return {
      search_id: this.makeCursor(offset + page.length, request.query, userId),
      items,
      has_more: groups.length > offset + num,
    };
  }

  /**
   * One result per video, at the place of its best match; the video's other moments follow that
   * match, best first. (One link run as a moment task, a question and a caption task is one
   * video: it used to come back once per task, with the same snippet.)
   */
  private async byVideo(ranked: RankedHit[]): Promise<VideoGroup[]> {
    const keys = await this.repo.videoKeys([...new Set(ranked.map((hit) => hit.taskId))]);
    const groups = new Map<string, VideoGroup>();
    for (const hit of ranked) {
      const key = keys.get(hit.taskId) ?? hit.taskId;
      const group = groups.get(key);
      if (!group) groups.set(key, { best: hit, moments: [] });
      else if (hit.momentId) group.moments.push(hit);
    }
    return [...groups.values()];
  }

  /** The page's rows, shaped as the contract says, each with the sentence that answers. */
  private async hydrate(
    userId: string | null,
    groups: VideoGroup[],
    query: string,
  ): Promise<SearchHit[]> {
    const page = groups.map((group) => group.best);
    const terms = contentTerms(query);
    const momentIds = groups.flatMap((group) =>
      [group.best, ...group.moments].flatMap((hit) => (hit.momentId ? [hit.momentId] : [])),
    );
    const [momentRows, taskRows, passageRows] = await this.pageRows(userId, page, momentIds, query);
    const momentsById = new Map(momentRows.map((row) => [row.moment.id, row]));
    const tasksById = new Map(taskRows.map((row) => [row.id, row]));
    const snippetTerms = terms.length ? terms : queryWords(query);
    let meaningBudget = MEANING_SNIPPETS;
    const snippetOf = async (passages: Passage[], hit: RankedHit) => {
      const snippet = bestSnippet(passages, snippetTerms);
      // By meaning only where meaning chose what is shown: a moment found by meaning alone, or the
      // passage of a video (chosen by its words and its meaning); not a video found by its title.
      const chosenByMeaning = hit.byMeaningOnly || (hit.kind === 'task' && !!hit.passageId);
      if (snippet.matched || !chosenByMeaning || meaningBudget <= 0) return snippet;
      meaningBudget--;
      return (await this.nearestSnippet(query, passages, snippetTerms)) ?? snippet;
    };

    /**
     * The group's other moments that are not the same moment again: a question task and a moment
     * task of one video often keep the same stretch (same words, start and end within a second).
     */
    const otherMoments = (group: VideoGroup): SearchHitMoment[] => {
      const shown = group.best.momentId ? [momentsById.get(group.best.momentId)?.moment] : [];
      const listed: SearchHitMoment[] = [];
      for (const hit of group.moments) {
        const moment = momentsById.get(hit.momentId!)?.moment;
        if (!moment || listed.length >= SEARCH_MOMENTS_PER_HIT) continue;
        if (shown.some((other) => other && sameStretch(other, moment))) continue;
        shown.push(moment);
        listed.push({
          moment_id: moment.id,
          title: moment.title,
          snippet: bestSnippet(
            [
              { text: moment.transcript, startMs: moment.startMs },
              { text: moment.description, startMs: moment.startMs },
            ],
            snippetTerms,
          ).text,
          start_ms: moment.startMs,
          score: moment.score,
        });
      }
      return listed;
    };

    const items: SearchHit[] = [];
    for (const group of groups) {
      const hit = group.best;
      if (hit.momentId) {
        const row = momentsById.get(hit.momentId);
        if (!row) continue; // deleted between the two queries
        const { moment } = row;
        const snippet = await snippetOf(
          [
            { text: moment.description, startMs: moment.startMs },
            { text: moment.transcript, startMs: moment.startMs },
            { text: (moment.hashtags as string[]).join(' '), startMs: moment.startMs },
          ],
          hit,
        );
        items.push({
          kind: 'moment',
          // The moment's own frame: what a visitor of a shared moment may see.
          video: { ...VideoMetaSchema.parse(row.video), thumbnail: momentThumbnail(moment) },
          task_id: moment.taskId,
          moment_id: moment.id,
          title: moment.title,
          snippet: snippet.text,
          start_ms: moment.startMs,
          score: moment.score,
          moments: otherMoments(group),
        });
        continue;
      }
      const row = tasksById.get(hit.taskId);
      if (!row) continue;
      const video = videoOfTask(row);
      // The answering passage's lines (each where it is heard); for a title hit, its first
      // passage with a word of the query (or its first passage).
      const passages = passageRows.filter((p) =>
        hit.passageId ? p.id === hit.passageId : p.task_id === hit.taskId,
      );
      const lines: Passage[] = passages.flatMap((p) =>
        p.text.split('\n').map((text, i) => ({ text, startMs: p.segment_starts[i] ?? p.start_ms })),
      );
      const snippet = await snippetOf(lines, hit);
      const answering = hit.passageId ? passages[0] : undefined;
      items.push({
        kind: 'task',
        video,
        task_id: hit.taskId,
        moment_id: null,
        title: video.title || row.query || 'Untitled video',
        snippet: snippet.text,
        // Where the matched sentence is heard; for a passage found by meaning, where it starts.
        start_ms: snippet.matched ? snippet.startMs : (answering?.start_ms ?? null),
        score: null,
        moments: otherMoments(group),
      });
    }
    return items;
  }

  /** The rows a page shows: its moments with their videos, its videos, their passages. */
  private pageRows(userId: string | null, page: RankedHit[], momentIds: string[], query: string) {
    const taskHits = page.filter((hit) => hit.kind === 'task');
    return Promise.all([
      this.repo.momentsWithTasks(momentIds),
      this.repo.tasksByIds(taskHits.map((hit) => hit.taskId)),
      // Videos are found by their owner only: an anonymous page has none.
      userId
        ? this.repo.passages(
            userId,
            taskHits.flatMap((hit) => (hit.passageId ? [hit.passageId] : [])),
            taskHits.flatMap((hit) => (hit.passageId ? [] : [hit.taskId])),
            query,
          )
        : [],
    ]);
  }

  /** The sentence nearest to the query by meaning, for a hit that shares no word with it. */
  private async nearestSnippet(
    query: string,
    passages: Passage[],
    terms: readonly string[],
  ): Promise<Snippet | null> {
    const sentences = passages.flatMap((passage) =>
      splitSentences(passage.text).map((text) => ({ text, startMs: passage.startMs })),
    );
    const chosen =
      sentences[
        await this.ranking.nearestSentence(
          query,
          sentences.map((s) => s.text),
        )
      ];
    return chosen
      ? { text: clipSnippet(chosen.text, terms), startMs: chosen.startMs, matched: true }
      : null;
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
