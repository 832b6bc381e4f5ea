/**
 * `npm run bench -- highlights`: the moment finder, with and without its sentence embeddings, on the
 * hand-labelled evaluation set in bench/highlights/ (eight spoken talks, highlights marked before any
 * tuning). For each: highlight recall in the top 3 and top 5, housekeeping or sign-offs in the top 3,
 * the share of titles that start with a whole word of the clip's transcript, and the cost in seconds
 * per hour of video. HIGHLIGHTS_BENCH_LIMIT=n scores the first n talks only (quick looks; the
 * README's figures use all eight).
 */
import {
  findViralMoments,
  type FindViralMomentsOptions,
  type Moment,
} from '../packages/ai/src/moments/index';
import { wordTokens } from '../packages/ai/src/search/text';
import { loadTalks, spokenTalk, type SpokenTalk } from './highlights/talks';

interface Judge {
  name: string;
  options: FindViralMomentsOptions;
}

/**
 * A moment finds a highlight when it holds most of it (60%) and is mostly about it (half the clip):
 * a 90 s clip that wraps a highlight in two paragraphs of filler is not the clip a person would post.
 */
function covers(moment: Moment, span: { startMs: number; endMs: number }): boolean {
  const overlap = Math.min(moment.endMs, span.endMs) - Math.max(moment.startMs, span.startMs);
  return (
    overlap >= 0.6 * (span.endMs - span.startMs) && overlap >= 0.5 * (moment.endMs - moment.startMs)
  );
}

/** Housekeeping in a clip: the clip spends more than a third of its length on such a paragraph. */
function isMostlyHousekeeping(moment: Moment, talk: SpokenTalk): boolean {
  return talk.paragraphs.some((p, i) => {
    if (p.kind !== 'housekeeping') return false;
    const span = talk.spans[i]!;
    const overlap = Math.min(moment.endMs, span.endMs) - Math.max(moment.startMs, span.startMs);
    return overlap > (moment.endMs - moment.startMs) / 3;
  });
}

/** The title's first word is a whole word of the clip's transcript (not "Hat" cut from "That"). */
function titleStartsWithWholeWord(moment: Moment): boolean {
  const first = wordTokens(moment.title)[0];
  return first !== undefined && wordTokens(moment.text).includes(first);
}

export default async function bench(): Promise<void> {
  const talks: SpokenTalk[] = [];
  const all = await loadTalks();
  const limit = Number(process.env.HIGHLIGHTS_BENCH_LIMIT) || all.length;
  for (const talk of all.slice(0, limit)) talks.push(await spokenTalk(talk));
  const audioHours = talks.reduce((sum, t) => sum + t.transcript.durationMs, 0) / 3_600_000;
  const highlightCount = talks.reduce(
    (sum, t) => sum + t.paragraphs.filter((p) => p.kind === 'highlight').length,
    0,
  );
  console.log(
    `highlights: ${talks.length} talks, ${(audioHours * 60).toFixed(1)} min of speech, ${highlightCount} highlights (transcripts by ${talks[0]?.engine})`,
  );
  const judges: Judge[] = [
    { name: 'cues, words only (no MiniLM)', options: { embedder: null } },
    // The default: MiniLM places topic shifts (no clip runs across one) and hashtags.
    { name: 'cues + MiniLM topics (default)', options: {} },
  ];
  const rows: string[] = [];
  for (const judge of judges) {
    let hits3 = 0;
    let hits5 = 0;
    let housekeeping3 = 0;
    let titles = 0;
    let wholeTitles = 0;
    let ms = 0;
    for (const talk of talks) {
      const started = performance.now();
      const { moments } = await findViralMoments(talk.transcript, {
        ...judge.options,
        maxMoments: 10,
      });
      ms += performance.now() - started;
      const top3 = moments.slice(0, 3);
      const top5 = moments.slice(0, 5);
      talk.paragraphs.forEach((p, i) => {
        if (p.kind !== 'highlight') return;
        if (top3.some((m) => covers(m, talk.spans[i]!))) hits3++;
        if (top5.some((m) => covers(m, talk.spans[i]!))) hits5++;
      });
      housekeeping3 += top3.filter((m) => isMostlyHousekeeping(m, talk)).length;
      titles += moments.length;
      wholeTitles += moments.filter(titleStartsWithWholeWord).length;
      if (process.env.BENCH_VERBOSE)
        for (const [k, m] of moments.slice(0, 5).entries())
          console.log(
            `  ${talk.name} #${k + 1} ${m.score} ${(m.startMs / 1000).toFixed(0)}-${(m.endMs / 1000).toFixed(0)} s "${m.title}"`,
          );
    }
    rows.push(
      `${judge.name.padEnd(34)} recall@3 ${(hits3 / highlightCount).toFixed(2)}  recall@5 ${(hits5 / highlightCount).toFixed(2)}  ` +
        `housekeeping in top 3: ${housekeeping3}  whole-word titles ${((100 * wholeTitles) / Math.max(1, titles)).toFixed(0)}%  ` +
        `${(ms / 1000 / audioHours).toFixed(1)} s per hour of video`,
    );
  }
  for (const row of rows) console.log(`highlights: ${row}`);
}
