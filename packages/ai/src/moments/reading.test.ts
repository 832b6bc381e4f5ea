// What a person reads on a moment and a summary, over talks the rules were not written around:
// the frozen bench talks' committed transcripts (bench/frozen, read here as data only).
import { describe, expect, it } from 'vitest';
import { scoreBreakdown } from '@moments/domain/scores';
import { hashtagWords } from '../../../../bench/marked-talks/metrics';
import { spokenSet } from '../../../../bench/marked-talks/sets';
import type { SpokenMarkedTalk } from '../../../../bench/marked-talks/talks';
import { endsOnFunctionWord, nounPhrases, tagWords } from '../language/index';
import { findAnswerMomentsWithReport } from '../search/index';
import { contentTerms } from '../search/text';
import { summariseTranscript } from '../summary/index';
import { findViralMoments } from './index';
import type { Moment } from './types';

/**
 * A few talks in the fast tier's time (the quality bench checks the same on every talk: its
 * "scores off their points" figure).
 */
const TALKS = 3;

const talks: SpokenMarkedTalk[] = (
  await spokenSet('frozen', undefined, { cachedOnly: true })
).slice(0, TALKS);

/** A single-word tag the clip says as a verb ("#Judge" from "do not judge it") or a stopword. */
function bareWord(tag: string, clip: string): string | undefined {
  const words = hashtagWords(tag);
  if (words.length !== 1) return undefined;
  const [word] = words as [string];
  if (contentTerms(word).length === 0) return `${tag} is a stopword`;
  const said = tagWords(clip).filter((tagged) => tagged.text.toLowerCase() === word);
  if (said.length > 0 && said.every((tagged) => tagged.pos === 'VERB' || tagged.pos === 'AUX'))
    return `${tag} is said as a verb`;
  return undefined;
}

describe.each(talks.map((talk) => [talk.name, talk] as const))('the talk "%s"', (_name, talk) => {
  it('shows scores that are the sum of their points, hashtags that are no bare verb, titles with no ellipsis and noun-phrase chapters', async () => {
    const { moments } = await findViralMoments(talk.transcript, { maxMoments: 10 });
    const answers: Moment[] = [];
    for (const question of talk.questions)
      answers.push(
        ...(await findAnswerMomentsWithReport(talk.transcript, question.question, { limit: 3 }))
          .moments,
      );
    const summary = await summariseTranscript(talk.transcript);
    expect(moments.length).toBeGreaterThan(0);
    for (const moment of [...moments, ...answers]) {
      const points = moment.reasons.reduce((sum, reason) => sum + reason.weight, 0);
      expect(points, `"${moment.title}": ${JSON.stringify(moment.reasons)}`).toBe(moment.score);
      // Each reason once, already as the card shows it.
      expect(scoreBreakdown(moment.reasons)).toEqual({
        score: moment.score,
        parts: moment.reasons,
      });
      expect(moment.title, moment.text).not.toMatch(/…|\.\.\.$/);
      expect(moment.title.length).toBeLessThanOrEqual(60);
      expect(moment.hashtags.length).toBeLessThanOrEqual(5);
      for (const tag of moment.hashtags) expect(bareWord(tag, moment.text)).toBeUndefined();
    }
    for (const chapter of summary.chapters) {
      expect(nounPhrases(chapter.title).length, chapter.title).toBeGreaterThan(0);
      expect(endsOnFunctionWord(chapter.title), chapter.title).toBe(false);
    }
  });
});
