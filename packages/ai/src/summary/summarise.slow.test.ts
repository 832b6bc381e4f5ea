import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FasterWhisperEngine, fasterWhisperAvailability } from '../asr/faster-whisper';
import { probeAudioDurationMs } from '../asr/audio-duration';
import type { Transcript } from '../asr/types';
import { startOpenAIStubServer, type StubServer } from '../llm/testing/openai-stub-server';
import { OpenAICompatibleLlm } from '../llm/index';
import { transcriptFromParagraphs } from '../moments/testing/held-out';
import { loadDefaultEmbedder } from '../search/embeddings';
import { summariseTranscript } from './summarise';

const execFileAsync = promisify(execFile);
const availability = fasterWhisperAvailability();
const hasEspeak = existsSync('/usr/bin/espeak-ng');
if (!availability.available) console.warn(`[summary tests] skipping: ${availability.reason}`);
if (!hasEspeak) console.warn('[summary tests] skipping: espeak-ng is not installed');

// Four talks on clearly different subjects, spoken one after the other: the true chapter starts
// are where each one begins in the joined audio.
const TOPICS: { name: string; words: RegExp; text: string }[] = [
  {
    name: 'bees',
    words: /\b(bee|bees|hive|honey|pollen|queen|flowers?|nectar|wax)\b/i,
    text:
      'Honey bees live together in a hive ruled by a single queen. Worker bees fly from flower to flower ' +
      'collecting nectar and pollen. Back at the hive they turn the nectar into honey and store it in wax cells. ' +
      'A strong hive can hold fifty thousand bees in the middle of summer. Beekeepers open the hive gently ' +
      'and use smoke to keep the bees calm while they check the honey frames.',
  },
  {
    name: 'volcanoes',
    words: /\b(volcano|volcanoes|lava|magma|eruption|erupt\w*|ash|crater|mountain|rock)\b/i,
    text:
      'A volcano forms where hot magma rises from deep inside the earth. When pressure builds up, the volcano ' +
      'erupts and throws lava, ash and gas into the sky. Lava flows can cover whole valleys in black rock. ' +
      'Some volcanoes sleep for centuries before they erupt again. Scientists measure small earthquakes and ' +
      'the gas around the crater to warn people living near the mountain.',
  },
  {
    name: 'chess',
    words: /\b(chess|king|pawns?|board|bishop|knight|rook|checkmate|players?|game|queen)\b/i,
    text:
      'Chess is a game for two players on a board of sixty four squares. Each player starts with sixteen ' +
      'pieces, including eight pawns, two knights and two bishops. The goal is to trap the other king, which ' +
      'is called checkmate. Good players plan many moves ahead and control the center of the board. ' +
      'Tournaments use a clock so that each player has a fixed amount of time to think.',
  },
  {
    name: 'bread',
    words: /\b(bread|dough|flour|yeast|oven|bake\w*|baking|loaf|water|knead\w*|crust)\b/i,
    text:
      'To bake bread at home you need flour, water, salt and yeast. Mix them into a dough and knead it for ' +
      'ten minutes until it feels smooth. Let the dough rise in a warm place for about an hour. Then shape ' +
      'the loaf and bake it in a hot oven until the crust turns golden brown. Fresh bread smells wonderful ' +
      'and tastes best while it is still warm.',
  },
];

const ready = availability.available && hasEspeak;

describe.runIf(ready)('summary of a spoken talk with four topics', () => {
  let workDir: string;
  let transcript: Transcript;
  const trueStartsMs: number[] = [];

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'moments-summary-test-'));
    const parts: string[] = [];
    let offsetMs = 0;
    for (const [i, topic] of TOPICS.entries()) {
      const wav = join(workDir, `topic-${i}.wav`);
      await execFileAsync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', wav, topic.text]);
      trueStartsMs.push(offsetMs);
      offsetMs += await probeAudioDurationMs(wav);
      parts.push(`file '${wav}'`);
    }
    const list = join(workDir, 'list.txt');
    await writeFile(list, parts.join('\n'));
    const talk = join(workDir, 'talk.wav');
    await execFileAsync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-ar',
      '16000',
      '-ac',
      '1',
      talk,
    ]);
    transcript = await new FasterWhisperEngine().transcribe(talk, { language: 'en' });
  }, 300_000);
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const topicAt = (ms: number) => {
    let index = 0;
    trueStartsMs.forEach((start, i) => {
      if (ms >= start) index = i;
    });
    return index;
  };

  it('puts chapter boundaries within 10 s of the true topic changes, without an LLM', async () => {
    const { embedder } = await loadDefaultEmbedder();
    expect(embedder, 'the MiniLM model is installed by scripts/setup.sh').toBeDefined();
    const summary = await summariseTranscript(transcript, { embedder });
    expect(summary.method).toBe('extractive');
    expect(summary.chapters).toHaveLength(TOPICS.length);
    summary.chapters.forEach((chapter, i) => {
      expect(Math.abs(chapter.startMs - trueStartsMs[i]!)).toBeLessThanOrEqual(10_000);
    });
    // Each chapter's title names its own topic.
    summary.chapters.forEach((chapter, i) => expect(chapter.title).toMatch(TOPICS[i]!.words));
    // Key points: every topic has one, and each links to a time inside the topic it talks about.
    expect(summary.keyPoints.length).toBeGreaterThanOrEqual(TOPICS.length);
    const covered = new Set<number>();
    for (const point of summary.keyPoints) {
      const topic = topicAt(point.startMs + 500);
      expect(point.text).toMatch(TOPICS[topic]!.words);
      covered.add(topic);
    }
    expect(covered.size).toBe(TOPICS.length);
    // The overview states the talk's main points (not each chapter's first sentence),
    // several of them and not all about one topic.
    const overviewSentences = summary.overview.split(/(?<=[.!?])\s+/);
    expect(overviewSentences.length).toBeGreaterThanOrEqual(3);
    const topicsStated = new Set(
      overviewSentences.flatMap((sentence) =>
        TOPICS.flatMap((topic, i) => (topic.words.test(sentence) ? [i] : [])),
      ),
    );
    expect(topicsStated.size).toBeGreaterThanOrEqual(3);
    // Deterministic: the same transcript gives the same summary.
    expect(await summariseTranscript(transcript, { embedder })).toEqual(summary);
  });

  describe('with an LLM configured', () => {
    let stub: StubServer;
    afterAll(async () => stub?.close());

    it('uses its prose over the same chapters, and falls back with a warning when it fails', async () => {
      const { embedder } = await loadDefaultEmbedder();
      const extractive = await summariseTranscript(transcript, { embedder });
      stub = await startOpenAIStubServer({
        kind: 'reply',
        content: (request) => {
          const cited = [...String(request.messages.at(-1)?.content).matchAll(/\[(\d+)\]/g)];
          return JSON.stringify({
            overview: 'A talk about bees, volcanoes, chess and bread.',
            chapters: TOPICS.map((topic) => ({
              title: `About ${topic.name}`,
              summary: topic.name,
            })),
            key_points: [{ text: 'The last sentence.', sentence: Number(cited.at(-1)![1]) }],
          });
        },
      });
      const llm = new OpenAICompatibleLlm({ baseUrl: stub.baseUrl, model: 'stub' });
      const written = await summariseTranscript(transcript, { embedder, llm });
      expect(written.method).toBe('llm');
      expect(written.chapters.map((chapter) => chapter.title)).toEqual(
        TOPICS.map((t) => `About ${t.name}`),
      );
      expect(written.chapters.map((chapter) => chapter.startMs)).toEqual(
        extractive.chapters.map((chapter) => chapter.startMs),
      );
      expect(written.keyPoints[0]!.startMs).toBeGreaterThan(trueStartsMs.at(-1)!);

      stub.setBehaviour({ kind: 'status', status: 500, body: 'overloaded' });
      const fellBack = await summariseTranscript(transcript, { embedder, llm });
      expect(fellBack.method).toBe('extractive');
      expect(fellBack.chapters).toEqual(extractive.chapters);
      expect(fellBack.warnings.join(' ')).toMatch(/language model could not write the summary/);
    });
  });
});

// The talk's advice is a key point even when it ends by quoting a question. Paragraphs
// written for this test.
describe('key points of a talk whose advice ends on a question', () => {
  const talk = [
    'Good evening. I was asked to say a few words about coaching junior nurses, so here goes.',
    'For my first two years as a charge nurse I thought my job was to fix things. Someone came to me with a problem and I had the answer before they finished talking.',
    'One night a new nurse asked me to just listen. She talked for ten minutes about a patient she had lost, and I said nothing at all. Afterwards she said it was the most helpful talk she had had all year.',
    'Most nurses who quit in their first year say nobody on the ward had time for them. It is rarely the pay and rarely the hours.',
    'So here is what I do now. With every new nurse, listen for most of the time, and before you offer any advice, ask one question: do you want help with this, or do you want me to hear it?',
    'The night shift has its own rhythm, and the coffee machine is always broken. We have asked for a new one twice.',
    'Thank you all for having me, and good night.',
  ];

  it('states the advice, not only the line that announces it', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const summary = await summariseTranscript(transcript);
    const points = summary.keyPoints.map((point) => point.text);
    expect(points.some((text) => /before you offer any advice, ask one question/.test(text))).toBe(
      true,
    );
  });
});

// What a podcast says to its listeners (a sponsor's offer, a request for photos, the
// sign-off) is no point of the talk. Paragraphs written for this test.
describe('key points of a podcast with a sponsor read and a sign-off', () => {
  const talk = [
    'Hi all, and welcome back to the kitchen shelf.',
    'This month I finally learned to make fresh pasta without a machine. It turns out you need only flour, eggs and about twenty minutes of patience.',
    'The ratio that works is one egg for every hundred grams of flour. Knead it until it springs back when you press it, then let it rest for half an hour under a bowl.',
    'Before we go on, this episode comes with an offer from a knife shop I like. Enter the word shelf at checkout and you get fifteen percent off your first order.',
    'Roll the dough thinner than you think. If you can read a newspaper through it, it is ready to cut. Thick pasta turns gummy however long you boil it.',
    'Dry the ribbons on a floured towel for ten minutes so they do not stick together in the pot.',
    'If you enjoyed this episode, tell a friend who still buys dried pasta. Send me a picture of your first tray of noodles, and happy cooking.',
  ];

  it('keeps the offer, the requests and the goodbye out of the key points', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const summary = await summariseTranscript(transcript);
    const points = summary.keyPoints.map((point) => point.text).join(' | ');
    expect(summary.keyPoints.length).toBeGreaterThan(0);
    expect(points).not.toMatch(/checkout|first order|enjoyed this episode|send me a picture/i);
    // The pasta is what the talk is about.
    expect(points).toMatch(/egg|flour|dough|ribbons/i);
  });
});

// A key point states something; a line that only moves the talk along ("And that is
// where it all went wrong for me.") is none, and a line said twice is one key point. Paragraphs
// written for this test.
describe('key points of a story told with signposts', () => {
  const talk = [
    'Let me take you back to where this all started for me.',
    'Twelve years ago I bought a derelict watermill in Wales for less than the price of a garage in London. The roof had fallen into the grinding room and a family of owls lived in the hopper. The wheel had not turned since the nineteen fifties, and its oak paddles had rotted to stumps. It cost us thirty thousand pounds at auction.',
    'And that is where it all went wrong for me.',
    'The survey had missed that the mill race was silted solid, so the first winter flood came straight through the kitchen. We lost every floorboard on the ground floor and most of our savings. My daughter slept at her grandmother for three months while the walls dried out.',
    'My neighbour told me one thing that winter. Water always wins, so give it somewhere to go. We dug out four hundred metres of channel by hand over two summers, and a retired millwright from Shropshire rebuilt the sluice gate for the price of his petrol.',
    'So that is more or less what happened next.',
    'Today the wheel turns again and grinds about two tonnes of flour a year, which we sell at the Saturday market in town. A kilo bag costs four pounds and sells out by ten most weeks. Schools visit every spring to watch the stones turn, and the owls are still in the hopper. Water always wins, so give it somewhere to go.',
  ];

  it('states what happened, not the lines that move the story along, and a repeated line once', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const summary = await summariseTranscript(transcript);
    const points = summary.keyPoints.map((point) => point.text);
    expect(points.join(' | ')).not.toMatch(
      /where this all started|where it all went wrong|more or less what happened/,
    );
    const said = points.map((text) => text.toLowerCase().replace(/[^a-z ]/g, ''));
    expect(new Set(said).size).toBe(said.length);
    expect(points.join(' | ')).toMatch(/watermill|flood|flour/);
  });
});

// A lecture's lines that open its topics ("Okay, let's talk about what goes wrong with
// old pipes.") say what comes next; the key points are what comes. Paragraphs written for this test.
describe('key points of a lecture that announces its topics', () => {
  const talk = [
    'Okay, so tonight is all about the plumbing in an old house.',
    'Most Victorian terraces still have lead pipe somewhere between the street and the kitchen tap. Lead leaches into water that stands overnight, so the first glass of the morning carries the most. A plumber can swap the run to copper or plastic in about a day for around a thousand pounds.',
    "Okay, let's talk about what actually goes wrong with old pipes.",
    'Cast iron drains rust from the inside until roots find the cracks and block them. A camera survey costs less than a hundred pounds and shows every joint before you dig up a garden. Half the blocked drains I see were cracked by a tree planted too close to the house.',
    'Right, now the part everyone asks me about, the boiler.',
    'A boiler older than fifteen years wastes about a quarter of the gas it burns. Bleed the radiators every autumn, because trapped air leaves the top third of them cold. A condensing boiler pays for itself in roughly six winters on a three bedroom house.',
  ];

  it('states the facts and advice of each topic, not the lines that announce them', async () => {
    const { transcript } = transcriptFromParagraphs(talk);
    const summary = await summariseTranscript(transcript);
    const points = summary.keyPoints.map((point) => point.text).join(' | ');
    expect(points).not.toMatch(/all about the plumbing|what actually goes wrong|everyone asks me/);
    expect(points).toMatch(/lead/i);
    expect(points).toMatch(/drain|camera/i);
    expect(points).toMatch(/boiler|radiators/i);
  });
});
