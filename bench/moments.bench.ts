/**
 * Moment finding and moment search on synthetic long talks: time to find viral moments in a 1-hour
 * transcript (deterministic path), whether the planted strong segments come out on top, and search
 * recall@1 / recall@3 over 18 paraphrased question/answer pairs, semantic (local MiniLM) and lexical.
 */
import { findViralMoments } from '../packages/ai/src/moments/index';
import { rankOfAnswer, rankOfPlanted } from '../packages/ai/src/moments/testing/expectations';
import {
  PLANTED_CLAIM,
  PLANTED_CONFESSION,
  PLANTED_STORY,
  SEARCH_PASSAGES,
} from '../packages/ai/src/moments/testing/planted';
import { buildSyntheticTranscript } from '../packages/ai/src/moments/testing/synthetic-transcript';
import { loadDefaultEmbedder, findAnswerMomentsWithReport } from '../packages/ai/src/search/index';

async function benchViralMoments(): Promise<void> {
  const hour = buildSyntheticTranscript({
    minutes: 60,
    seed: 60,
    plants: [
      { id: 'story', sentences: PLANTED_STORY, at: 0.15 },
      { id: 'claim', sentences: PLANTED_CLAIM, at: 0.55 },
      { id: 'confession', sentences: PLANTED_CONFESSION, at: 0.9 },
    ],
  });
  const words = hour.transcript.segments.reduce((sum, segment) => sum + segment.words.length, 0);
  const times: number[] = [];
  let result = await findViralMoments(hour.transcript);
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    result = await findViralMoments(hour.transcript);
    times.push(performance.now() - started);
  }
  const ranks = ['story', 'claim', 'confession'].map(
    (id) => `${id} #${rankOfPlanted(result.moments, hour.planted.get(id)!) + 1}`,
  );
  console.log(
    `moments: 1-hour transcript (${hour.sentences.length} sentences, ${words} words): findViralMoments median ` +
      `${times.sort((a, b) => a - b)[1]!.toFixed(0)} ms, ${result.moments.length} moments; planted ranks: ${ranks.join(', ')}`,
  );
}

async function benchSearch(): Promise<void> {
  const talk = buildSyntheticTranscript({
    minutes: 30,
    seed: 30,
    plants: SEARCH_PASSAGES.map((passage, i) => ({
      id: passage.id,
      sentences: passage.sentences,
      at: (i + 0.5) / SEARCH_PASSAGES.length,
    })),
  });
  const { embedder, warning } = await loadDefaultEmbedder();
  if (warning) console.log(`moments: ${warning}`);
  for (const mode of embedder ? (['semantic', 'lexical'] as const) : (['lexical'] as const)) {
    let atRank1 = 0;
    let inTop3 = 0;
    const times: number[] = [];
    for (const passage of SEARCH_PASSAGES) {
      const started = performance.now();
      const report = await findAnswerMomentsWithReport(talk.transcript, passage.query, {
        limit: 5,
        embedder: mode === 'semantic' ? embedder : null,
      });
      times.push(performance.now() - started);
      // An answer counts when it answers from the passage (tight, not padded).
      const rank = rankOfAnswer(report.moments, talk.planted.get(passage.id)!);
      if (rank === 0) atRank1++;
      if (rank >= 0 && rank < 3) inTop3++;
    }
    const later = times.slice(1).sort((a, b) => a - b);
    console.log(
      `moments: search (${mode}) on a 30-minute transcript, ${SEARCH_PASSAGES.length} paraphrased queries: ` +
        `recall@1 ${(atRank1 / SEARCH_PASSAGES.length).toFixed(2)}, recall@3 ${(inTop3 / SEARCH_PASSAGES.length).toFixed(2)}; ` +
        `first query ${times[0]!.toFixed(0)} ms${mode === 'semantic' ? ' (embeds the transcript)' : ''}, later queries median ${later[Math.floor(later.length / 2)]!.toFixed(0)} ms`,
    );
  }
}

export default async function run(): Promise<void> {
  await benchViralMoments();
  await benchSearch();
}
