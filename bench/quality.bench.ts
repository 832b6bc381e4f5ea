/**
 * `npm run bench -- quality`: what the machine picks and writes, measured on marked talks
 * it was never tuned on. Three sets: `dev` (bench/dev, written by the developer) and `dev2`
 * (bench/dev2, a second writer kept away from the code), which rules may be tried on, and `frozen`
 * (bench/frozen, written by someone kept away from the code; evaluation only), reported apart, the
 * two dev parts also together. Definitions of every figure: bench/marked-talks/metrics.ts.
 *
 * QUALITY_BENCH_SETS=dev,dev2 (or frozen) limits the run; QUALITY_BENCH_CACHED_ONLY=1 skips talks not
 * yet spoken; BENCH_VERBOSE=1 prints each talk's top moments,
 * chapters and answers. With LLM_BASE_URL (+ LLM_MODEL, LLM_API_KEY) set, the same talks are also
 * run with that endpoint as judge and summary writer.
 */
import type { LlmClient } from '../packages/ai/src/llm/index';
import { OpenAICompatibleLlm } from '../packages/ai/src/llm/index';
import { findViralMoments, type Moment } from '../packages/ai/src/moments/index';
import { loadDefaultEmbedder, findAnswerMomentsWithReport } from '../packages/ai/src/search/index';
import { summariseTranscript, type VideoSummary } from '../packages/ai/src/summary/index';
import {
  answerFigures,
  keyPointsOnLowConfidence,
  momentFigures,
  readingFigures,
  splitHyphenations,
  summaryFigures,
  titlesOnLowConfidence,
} from './marked-talks/metrics';
import { MARKED_SETS, spokenSet, type MarkedSetName } from './marked-talks/sets';
import { paragraphSpan, spanOf, type SpokenMarkedTalk } from './marked-talks/talks';

interface TalkOutput {
  talk: SpokenMarkedTalk;
  moments: Moment[];
  summary: VideoSummary;
  answers: Moment[][];
  seconds: number;
  usedLlm: boolean;
  summaryByLlm: boolean;
}

/** What judges and writes: the offline rules, or an LLM endpoint. */
interface Judge {
  name: string;
  llm?: LlmClient;
}

async function runTalk(talk: SpokenMarkedTalk, judge: Judge): Promise<TalkOutput> {
  const started = performance.now();
  const { llm } = judge;
  const found = await findViralMoments(talk.transcript, { maxMoments: 10, llm });
  const summary = await summariseTranscript(talk.transcript, { llm });
  const answers: Moment[][] = [];
  for (const question of talk.questions) {
    const report = await findAnswerMomentsWithReport(talk.transcript, question.question, {
      limit: 3,
    });
    answers.push(report.moments);
  }
  return {
    talk,
    moments: found.moments,
    summary,
    answers,
    seconds: (performance.now() - started) / 1000,
    usedLlm: found.method === 'llm',
    summaryByLlm: summary.method === 'llm',
  };
}

const pct = (part: number, whole: number) =>
  whole ? `${((100 * part) / whole).toFixed(0)}%` : '-';
const ratio = (part: number, whole: number) => (whole ? (part / whole).toFixed(2) : '-');

function report(set: string, judge: string, outputs: TalkOutput[]): void {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const m = outputs.map((o) => momentFigures(o.talk, o.moments));
  const s = outputs.map((o) => summaryFigures(o.talk, o.summary));
  const a = outputs.map((o) => answerFigures(o.talk, o.answers));
  const written = outputs.flatMap((o) => [
    ...o.moments.flatMap((moment) => [
      moment.title,
      moment.description,
      moment.text,
      ...moment.hashtags,
    ]),
    o.summary.overview,
    ...o.summary.chapters.flatMap((chapter) => [chapter.title, chapter.summary]),
    ...o.summary.keyPoints.map((point) => point.text),
    ...o.answers.flatMap((answers) => answers.map((answer) => answer.text)),
  ]);
  const split = splitHyphenations(written);
  const lowTitles = outputs.flatMap((o) => titlesOnLowConfidence(o.talk, o.moments));
  const lowKeyPoints = outputs.flatMap((o) => keyPointsOnLowConfidence(o.talk, o.summary));
  const keyPoints = sum(outputs.map((o) => o.summary.keyPoints.length));
  const allMain = s.filter((f) => f.mainStated === f.mainPoints).length;
  const minutes = sum(outputs.map((o) => o.talk.sentenceSpans.at(-1)!.endMs)) / 60_000;
  const tag = `quality [${set}, ${judge}]`;
  console.log(
    `${tag}: ${outputs.length} talks, ${minutes.toFixed(1)} min; highlights recall@3 ${ratio(sum(m.map((f) => f.found3)), sum(m.map((f) => f.reachable3)))} ` +
      `(found ${sum(m.map((f) => f.found3))} of ${sum(m.map((f) => f.reachable3))} reachable), recall@5 ${ratio(sum(m.map((f) => f.found5)), sum(m.map((f) => f.highlights)))}, ` +
      `filler in top 3: ${sum(m.map((f) => f.filler3))}, takeaway in top 3: ${m.filter((f) => f.takeawayTop3).length}/${m.length} talks`,
  );
  console.log(
    `${tag}: summaries: every main point stated in ${pct(allMain, s.length)} of talks (${sum(s.map((f) => f.mainStated))}/${sum(s.map((f) => f.mainPoints))} points); ` +
      `chapter starts within 5 s of a shift ${pct(sum(s.map((f) => f.startsOnShift)), sum(s.map((f) => f.chapterStarts)))} ` +
      `(${sum(s.map((f) => f.startsOnShift))}/${sum(s.map((f) => f.chapterStarts))}; shifts found ${sum(s.map((f) => f.shiftsFound))}/${sum(s.map((f) => f.shifts))}); ` +
      `chapter titles with a noun phrase, ending on no function word ${sum(s.map((f) => f.goodTitles))}/${sum(s.map((f) => f.chapterTitles))}; ` +
      `key points said in filler ${sum(s.map((f) => f.fillerKeyPoints))}/${keyPoints}`,
  );
  const padding = a.flatMap((f) => f.paddingSeconds).sort((x, y) => x - y);
  console.log(
    `${tag}: answers: good ${pct(sum(a.map((f) => f.good)), sum(a.map((f) => f.questions)))} (${sum(a.map((f) => f.good))}/${sum(a.map((f) => f.questions))}; ` +
      `covering half the answer ${sum(a.map((f) => f.covering))}), median length past the answer ${(padding[Math.floor(padding.length / 2)] ?? 0).toFixed(1)} s; ` +
      `split hyphenated words in any output: ${split.length}; titles on a low-confidence word with a clean alternative: ${lowTitles.length}; ` +
      `key points showing a low-confidence word: ${lowKeyPoints.length}/${keyPoints}; ` +
      `${(sum(outputs.map((o) => o.seconds)) / (minutes / 60)).toFixed(0)} s per hour of video` +
      (judge === 'offline'
        ? ''
        : `; the LLM judged the moments of ${outputs.filter((o) => o.usedLlm).length}/${outputs.length} talks ` +
          `and wrote the summary of ${outputs.filter((o) => o.summaryByLlm).length}`),
  );
  const r = outputs.map((o) => readingFigures(o.talk, o.moments, o.answers, o.summary));
  const chaptersPerTopic = outputs.map((_, k) => r[k]!.chapters / r[k]!.topics);
  console.log(
    `${tag}: reading: hashtags that are noun phrases ${pct(sum(r.map((f) => f.nounPhraseTags)), sum(r.map((f) => f.hashtags)))} ` +
      `(${sum(r.map((f) => f.nounPhraseTags))}/${sum(r.map((f) => f.hashtags))}); titles whole ${pct(sum(r.map((f) => f.wholeTitles)), sum(r.map((f) => f.titles)))} ` +
      `(${sum(r.map((f) => f.wholeTitles))}/${sum(r.map((f) => f.titles))}); answers holding the marked answer sentences ${pct(sum(r.map((f) => f.answersHolding)), sum(r.map((f) => f.answers)))} ` +
      `(${sum(r.map((f) => f.answersHolding))}/${sum(r.map((f) => f.answers))}); chapters ${sum(r.map((f) => f.chapters))} for ${sum(r.map((f) => f.topics))} marked topics ` +
      `(per talk, chapters over topics: median ${ratio([...chaptersPerTopic].sort((x, y) => x - y)[Math.floor(chaptersPerTopic.length / 2)] ?? 0, 1)}, ` +
      `talks within one of their topic count ${outputs.filter((_, k) => Math.abs(r[k]!.chapters - r[k]!.topics) <= 1).length}/${outputs.length}); ` +
      `scores off their points: ${sum(r.map((f) => f.scoresOffPoints))}`,
  );
  if (process.env.BENCH_VERBOSE && set !== 'frozen' && set !== 'dev+dev2')
    for (const o of outputs)
      for (const m of [...o.moments.slice(0, 5), ...o.answers.flatMap((list) => list.slice(0, 1))])
        console.log(`${tag}:   reading ${o.talk.name}: "${m.title}" ${m.hashtags.join(' ')}`);
  // The frozen set's outputs are never printed, only its figures: nothing may be tuned on it.
  if (set === 'frozen' || set === 'dev+dev2' || !process.env.BENCH_VERBOSE) return;
  for (const text of [...split, ...lowTitles].slice(0, 5))
    console.log(`${tag}:   ! "${text.slice(0, 100)}"`);
  for (const [k, f] of s.entries())
    for (const title of f.badTitles)
      console.log(`${tag}:   title ${outputs[k]!.talk.name}: "${title}"`);
  for (const [k, o] of outputs.entries()) {
    console.log(
      `  ${o.talk.name}: takeaway rank ${m[k]!.takeawayRank + 1}, main points ${s[k]!.mainStated}/${s[k]!.mainPoints}`,
    );
    for (const [rank, moment] of o.moments.slice(0, 5).entries())
      console.log(
        `    #${rank + 1} ${moment.score} ${(moment.startMs / 1000).toFixed(0)}-${(moment.endMs / 1000).toFixed(0)} s "${moment.title}" ${moment.hashtags.join(' ')}`,
      );
    const marked = (keep: (p: SpokenMarkedTalk['paragraphs'][number]) => boolean) =>
      o.talk.paragraphs
        .flatMap((p, i) => (keep(p) ? [paragraphSpan(o.talk, i)] : []))
        .map((span) => `${(span.startMs / 1000).toFixed(0)}-${(span.endMs / 1000).toFixed(0)}`)
        .join(', ');
    console.log(`    highlights ${marked((p) => p.highlight)}; filler ${marked((p) => p.filler)}`);
    const shifts = o.talk.paragraphs.flatMap((p, i) => (p.shift ? [i] : []));
    console.log(
      `    marked shifts at ${shifts.map((i) => (paragraphSpan(o.talk, i).startMs / 1000).toFixed(0)).join(', ')} s; main: ` +
        o.talk.paragraphs
          .flatMap((p, i) =>
            p.main
              ? [
                  `${(paragraphSpan(o.talk, i).startMs / 1000).toFixed(0)} s "${p.text.slice(0, 50)}"`,
                ]
              : [],
          )
          .join('; '),
    );
    for (const chapter of o.summary.chapters)
      console.log(`    chapter ${(chapter.startMs / 1000).toFixed(0)} s "${chapter.title}"`);
    console.log(`    overview: ${o.summary.overview}`);
    for (const point of o.summary.keyPoints)
      console.log(
        `    key point ${(point.startMs / 1000).toFixed(0)} s: ${point.text.slice(0, 80)}`,
      );
    o.talk.questions.forEach((question, q) => {
      const top = o.answers[q]?.[0];
      const marked = spanOf(o.talk, question.sentences);
      const good = answerFigures({ ...o.talk, questions: [question] }, [o.answers[q] ?? []]).good;
      console.log(
        `    Q ${good ? 'ok' : 'MISS'} "${question.question}" (marked ${(marked.startMs / 1000).toFixed(0)}-${(marked.endMs / 1000).toFixed(0)} s) -> ` +
          (top
            ? `${(top.startMs / 1000).toFixed(0)}-${(top.endMs / 1000).toFixed(0)} s "${top.title}"`
            : 'none'),
      );
    });
  }
}

function judges(): Judge[] {
  const list: Judge[] = [{ name: 'offline' }];
  if (process.env.LLM_BASE_URL)
    list.push({
      name: `LLM endpoint ${process.env.LLM_MODEL ?? ''}`.trim(),
      llm: new OpenAICompatibleLlm({
        baseUrl: process.env.LLM_BASE_URL,
        apiKey: process.env.LLM_API_KEY,
        model: process.env.LLM_MODEL ?? 'default',
        timeoutMs: 300_000,
        temperature: 0,
      }),
    });
  return list;
}

export default async function bench(): Promise<void> {
  const sets = (process.env.QUALITY_BENCH_SETS?.split(',') ??
    Object.keys(MARKED_SETS)) as MarkedSetName[];
  const { embedder, warning } = await loadDefaultEmbedder();
  if (!embedder) console.log(`quality: ${warning} (figures are for the words-only fallback)`);
  for (const judge of judges()) {
    const devOutputs: TalkOutput[] = [];
    for (const set of sets) {
      const talks = await spokenSet(set, undefined, {
        cachedOnly: process.env.QUALITY_BENCH_CACHED_ONLY === '1',
      });
      const outputs: TalkOutput[] = [];
      for (const talk of talks) outputs.push(await runTalk(talk, judge));
      report(set, judge.name, outputs);
      if (set !== 'frozen') devOutputs.push(...outputs);
    }
    // Both dev parts together: what the rules are chosen on.
    if (sets.filter((set) => set !== 'frozen').length > 1)
      report('dev+dev2', judge.name, devOutputs);
  }
}
