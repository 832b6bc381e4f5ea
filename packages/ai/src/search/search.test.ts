import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boundaryProblems, rankOfAnswer } from '../moments/testing/expectations';
import { SEARCH_PASSAGES } from '../moments/testing/planted';
import {
  buildSyntheticTranscript,
  type SyntheticTranscript,
} from '../moments/testing/synthetic-transcript';
import { cosine, MiniLmEmbedder } from './embeddings';
import {
  configureEmbeddings,
  DEFAULT_EMBEDDING_MODEL_DIR,
  findAnswerMoments,
  findAnswerMomentsWithReport,
} from './index';
import { WordPieceTokenizer } from './wordpiece';
import { transcriptFromParagraphs } from '../moments/testing/held-out';

const modelDir = DEFAULT_EMBEDDING_MODEL_DIR;
const hasModel =
  existsSync(path.join(modelDir, 'model.onnx')) && existsSync(path.join(modelDir, 'vocab.txt'));
if (!hasModel)
  console.warn(
    `[search.test] no sentence-embedding model in ${modelDir} (npm run setup installs it): semantic search tests skipped`,
  );

let synthetic: SyntheticTranscript;
beforeAll(() => {
  // 18 topical passages spread through 20 minutes of ordinary talk.
  synthetic = buildSyntheticTranscript({
    minutes: 20,
    seed: 8,
    plants: SEARCH_PASSAGES.map((passage, i) => ({
      id: passage.id,
      sentences: passage.sentences,
      at: (i + 0.5) / SEARCH_PASSAGES.length,
    })),
  });
});

describe('findAnswerMoments without the embedding model (words, stems and synonyms)', () => {
  afterEach(() => configureEmbeddings());

  it('falls back to lexical search with a clear warning and still finds worded-alike answers', async () => {
    configureEmbeddings({ modelDir: '/nonexistent/moments-no-model' });
    const queries: [string, string][] = [
      ['bike-patch', 'mending a bike tube'],
      ['debt', 'paying off credit card debt'],
      ['puppy-lead', 'dog pulling on the leash'],
      ['lost-hike', 'lost while hiking in fog'],
      ['coffee', 'drinking less coffee'],
      ['japan', 'moving to Japan'],
    ];
    for (const [id, query] of queries) {
      const report = await findAnswerMomentsWithReport(synthetic.transcript, query, { limit: 5 });
      expect(report.method).toBe('lexical');
      expect(report.warnings.join(' ')).toMatch(/Semantic search is unavailable .*word matching/);
      expect(rankOfAnswer(report.moments, synthetic.planted.get(id)!), query).toBe(0);
      expect(boundaryProblems(report.moments, synthetic)).toEqual([]);
    }
  });

  it('returns nothing for a query the video does not talk about, and for an empty query', async () => {
    expect(
      await findAnswerMoments(synthetic.transcript, 'quantum chromodynamics lattice gauge theory', {
        embedder: null,
      }),
    ).toEqual([]);
    expect(await findAnswerMoments(synthetic.transcript, '   ', { embedder: null })).toEqual([]);
  });
});

describe.skipIf(!hasModel)('findAnswerMoments with the local sentence-embedding model', () => {
  it('tokenises like BERT uncased (the vocabulary the model was trained with)', async () => {
    const tokenizer = new WordPieceTokenizer(
      await readFile(path.join(modelDir, 'vocab.txt'), 'utf8'),
    );
    expect(tokenizer.encode('Hello, world! Café')).toEqual([101, 7592, 1010, 2088, 999, 7668, 102]);
  });

  it('embeds paraphrases closer than unrelated sentences', async () => {
    const embedder = await MiniLmEmbedder.load(modelDir);
    const [query, answer, unrelated] = await embedder.embed([
      'how do I repair a punctured bike wheel',
      'My neighbor showed me how to patch the inner tube on my bicycle.',
      'We usually start the week by making a big pot of soup.',
    ]);
    expect(cosine(query!, answer!)).toBeGreaterThan(0.35);
    expect(cosine(query!, unrelated!)).toBeLessThan(0.15);
  });

  it('gives each text its own vector in the order asked, whatever the batch mixes', async () => {
    const embedder = await MiniLmEmbedder.load(modelDir);
    // More than one batch, lengths shuffled: the embedder batches similar lengths together.
    const texts = Array.from({ length: 70 }, (_, i) =>
      i % 3 === 0
        ? `Short line ${i}.`
        : `A much longer sentence number ${i} about rivers, bridges and the towns that grew around them over centuries.`,
    );
    const together = await embedder.embed(texts);
    for (const i of [0, 1, 35, 69]) {
      const [alone] = await embedder.embed([texts[i]!]);
      expect(cosine(together[i]!, alone!)).toBeGreaterThan(0.999);
    }
  });

  it('finds paraphrased questions among ordinary talk (recall@1 and recall@3)', async () => {
    let atRank1 = 0;
    let inTop3 = 0;
    const misses: string[] = [];
    for (const passage of SEARCH_PASSAGES) {
      const report = await findAnswerMomentsWithReport(synthetic.transcript, passage.query, {
        limit: 5,
        minMs: 10_000,
        maxMs: 60_000,
      });
      expect(report.method).toBe('semantic');
      expect(report.warnings).toEqual([]);
      expect(boundaryProblems(report.moments, synthetic)).toEqual([]);
      for (const moment of report.moments) {
        expect(moment.endMs - moment.startMs).toBeGreaterThanOrEqual(10_000);
        expect(moment.endMs - moment.startMs).toBeLessThanOrEqual(60_000);
        expect(moment.reasons[0]?.kind).toBe('relevance');
      }
      report.moments
        .slice(1)
        .forEach((moment, i) => expect(moment.score).toBeLessThanOrEqual(report.moments[i]!.score));
      const rank = rankOfAnswer(report.moments, synthetic.planted.get(passage.id)!);
      if (rank === 0) atRank1++;
      if (rank >= 0 && rank < 3) inTop3++;
      else misses.push(`${passage.query} (rank ${rank})`);
    }
    console.log(
      `[search.test] recall@1 ${atRank1}/${SEARCH_PASSAGES.length}, recall@3 ${inTop3}/${SEARCH_PASSAGES.length}; missed: ${misses.join('; ') || 'none'}`,
    );
    expect(atRank1 / SEARCH_PASSAGES.length).toBeGreaterThanOrEqual(0.75);
    expect(inTop3 / SEARCH_PASSAGES.length).toBeGreaterThanOrEqual(0.85);
  });

  it('returns nothing for a query the video does not talk about', async () => {
    const report = await findAnswerMomentsWithReport(
      synthetic.transcript,
      'quantum chromodynamics lattice gauge theory',
    );
    expect(report.method).toBe('semantic');
    expect(report.moments).toEqual([]);
  });
});

// An answer is the tightest span that answers: the answering sentences and a short
// lead-in, never the talk around them. Paragraphs written for this test.
describe.skipIf(!hasModel)('answers to paraphrased questions', () => {
  const talk = [
    '-- Morning, everyone, thanks for squeezing into the back room again. The tea is in the urn. Grab a chair if you can find one.',
    'We bought the narrowboat four summers ago, mostly on a whim after a holiday. Neither of us had steered anything bigger than a rowing boat. The first lock took us forty minutes.',
    'So, the question I get most often is about the winter.',
    'The canal can freeze for a week or two in January. We run a small diesel stove day and night. And we keep a bucket of grit by the door for the towpath.',
    'Our neighbours on the next mooring grow tomatoes on their roof. They even had a pumpkin last year. It still amazes me.',
    'Mooring fees went up again this year, by about a tenth. That hurt. We may move further out of town.',
    '-- That is us for today. See you next month, and mind the ice on the way out.',
  ];
  const { transcript, paragraphs } = transcriptFromParagraphs(talk);

  it('answers with the sentences that answer, led in by the question the speaker asked', async () => {
    const report = await findAnswerMomentsWithReport(
      transcript,
      'how do you keep warm on the boat in winter',
      {
        limit: 3,
      },
    );
    const top = report.moments[0]!;
    const lead = paragraphs[2]!;
    const answer = paragraphs[3]!;
    // It holds the answer and starts no earlier than its lead-in.
    expect(top.startMs).toBeGreaterThanOrEqual(lead.startMs - 300);
    expect(top.endMs).toBeGreaterThanOrEqual(answer.endMs - 300);
    // And runs on into nothing else.
    expect(top.endMs).toBeLessThan(paragraphs[4]!.startMs);
    expect(top.text).toMatch(/diesel stove/);
  });

  it('answers a number question with the sentence that holds the number, not its whole paragraph', async () => {
    const report = await findAnswerMomentsWithReport(
      transcript,
      'how much did the mooring cost rise',
      {
        limit: 3,
      },
    );
    const top = report.moments[0]!;
    expect(top.text).toMatch(/a tenth/);
    expect(top.startMs).toBeGreaterThanOrEqual(paragraphs[4]!.startMs - 300);
    expect(top.text).not.toMatch(/see you next month/);
  });
});

// The line announcing the talk names every question's topic and answers none of them.
// Paragraphs written for this test.
describe.skipIf(!hasModel)('answers past the talk announcement', () => {
  const talk = [
    '-- Hello and welcome, it is good to see so many of you here this evening.',
    'Today we are looking at how beekeepers get their colonies through a hard winter.',
    'In autumn the hive shrinks to a tight ball of a few thousand workers around the queen. They shiver their flight muscles to hold the centre of the cluster at about thirty degrees.',
    'Most colonies that die in winter do not freeze; they starve. I heft each hive in January, and a light one gets a block of fondant on the top bars that same day.',
    'Damp kills more bees than cold. A tilted floor and a little gap under the roof let the moisture out.',
    '-- Thank you all for listening, and see you at the spring meeting.',
  ];
  const { transcript, paragraphs } = transcriptFromParagraphs(talk);

  it('answers how bees are fed through the winter with the feeding advice, not the announcement', async () => {
    const report = await findAnswerMomentsWithReport(
      transcript,
      'what do beekeepers do so their hives do not starve in winter',
      { limit: 3 },
    );
    const top = report.moments[0]!;
    expect(top.text).toMatch(/fondant/);
    expect(top.startMs).toBeGreaterThanOrEqual(paragraphs[3]!.startMs - 300);
    expect(top.endMs).toBeLessThanOrEqual(paragraphs[3]!.endMs + 300);
  });
});

// In an interview the answer is the reply after the question asked in the talk, all of
// it, and not the topic before. Paragraphs written for this test.
describe.skipIf(!hasModel)('answers in an interview', () => {
  const talk = [
    '-- Welcome back to the workshop hour. This week my guest builds staircases for old houses.',
    'The timber yard we used for years closed last spring, and the prices at the new one were a shock.',
    'Let us go back to the start. Who was your first apprentice? For two years it was only me and my brother. Then a retired carpenter answered a card I pinned up at the library, and he stayed eleven years.',
    'Oak, nearly always, for the treads. It wears slowly and takes a stain well.',
    '-- That is all for this week. Thanks for listening.',
  ];
  const { transcript, paragraphs } = transcriptFromParagraphs(talk);

  it('answers with the question asked in the talk and the whole reply after it', async () => {
    const report = await findAnswerMomentsWithReport(transcript, 'who did they take on first', {
      limit: 3,
    });
    const top = report.moments[0]!;
    expect(top.text).toMatch(/Who was your first apprentice\?/);
    // The reply goes on past its first sentence: the carpenter is the answer.
    expect(top.text).toMatch(/retired carpenter/);
    expect(top.startMs).toBeGreaterThanOrEqual(paragraphs[2]!.startMs - 300);
    expect(top.endMs).toBeLessThanOrEqual(paragraphs[2]!.endMs + 300);
  });
});

// After a question asked in the talk, the reply is its first sentences, up to the one
// with the kind of answer asked for (a number), not the talk that follows. Paragraphs written for
// this test.
describe.skipIf(!hasModel)('answers with the list a speaker announces', () => {
  const talk = [
    '-- Good evening, and thank you for coming out in this rain.',
    'The mill at the bottom of our street ground flour for almost two hundred years.',
    "So why did the old mill close in the end? Three reasons, really. The river silted up and the wheel stopped turning in dry summers. The railway reached the town and flour came in cheaper from the cities. And the owner's son had no interest in the trade. My grandmother worked there as a girl, and she kept the wage book until she died.",
    'Next week the history society visits the canal locks.',
  ];
  const { transcript, paragraphs } = transcriptFromParagraphs(talk);

  it('answers with every item of the list, not the first of them', async () => {
    const report = await findAnswerMomentsWithReport(transcript, 'why did the mill shut down', {
      limit: 3,
    });
    const top = report.moments[0]!;
    expect(top.startMs).toBeGreaterThanOrEqual(paragraphs[2]!.startMs - 300);
    expect(top.text).toMatch(/silted/);
    expect(top.text).toMatch(/railway/);
    expect(top.text).toMatch(/owner's son/);
    expect(top.text).not.toMatch(/grandmother/);
  });
});

describe.skipIf(!hasModel)('answers with the reply to a question asked in the talk', () => {
  const talk = [
    '-- Hi everyone, and welcome back to the garden hour.',
    'Our bees spent the whole of June on the lime trees at the end of the road.',
    'So how long does a worker bee actually live in summer? About six weeks, because they wear their wings out foraging. Winter bees are different. A colony lets the drones starve once the nights turn cold, and the queen lays far fewer eggs until February.',
    'Next month we will look at wasps, and why they are not all bad.',
    '-- Thanks for listening, and see you next week.',
  ];
  const { transcript, paragraphs } = transcriptFromParagraphs(talk);

  it('answers a number question with the question, its reply and no more', async () => {
    const report = await findAnswerMomentsWithReport(
      transcript,
      'how many weeks does a summer worker bee live',
      { limit: 3 },
    );
    const top = report.moments[0]!;
    expect(top.text).toMatch(/six weeks/);
    expect(top.startMs).toBeGreaterThanOrEqual(paragraphs[2]!.startMs - 300);
    // The drones and the queen are other talk.
    expect(top.text).not.toMatch(/drones|queen/);
  });
});
