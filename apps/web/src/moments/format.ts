import type { Moment } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { scoreBreakdown } from '@moments/domain/scores';
import { t } from '../messages/catalogue';

/** "1:05 – 1:40" for a moment's span in milliseconds. */
export function formatSpan(startMs: number, endMs: number): string {
  return `${formatDuration(startMs)} – ${formatDuration(endMs)}`;
}

/** "35 s" or "1 min 20 s": how long a clip is. */
export function formatClipLength(startMs: number, endMs: number): string {
  const seconds = Math.max(0, Math.round((endMs - startMs) / 1000));
  if (seconds < 60) return t('moments.length.seconds', { seconds });
  const rest = seconds % 60;
  return rest
    ? t('moments.length.minutesSeconds', { minutes: Math.floor(seconds / 60), seconds: rest })
    : t('moments.length.minutes', { minutes: seconds / 60 });
}

/** What a score means, in the words the moments page shows (the judge is calibrated to these bands). */
export function scoreMeaning(kind: string = 'viral'): string {
  return kind === 'search' ? t('moments.score.meaning.search') : t('moments.score.meaning.viral');
}

const REASON_LABELS: Record<string, string> = {
  hook: t('moments.reason.hook'),
  payoff: t('moments.reason.payoff'),
  emotion: t('moments.reason.emotion'),
  pace: t('moments.reason.pace'),
  quotability: t('moments.reason.quotability'),
  salience: t('moments.reason.salience'),
  audience: t('moments.reason.audience'),
  relevance: t('moments.reason.relevance'),
  judge: t('moments.reason.judge'),
  story: t('moments.reason.story'),
  whole: t('moments.reason.whole'),
  penalty: t('moments.reason.penalty'),
};

/** A reader's label for a reason kind (spec: the hook, payoff, emotion, pace, quotability, topic). */
export function reasonLabel(kind: string): string {
  return REASON_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** One line under a moment's score: what it is, why, and what it adds ("+21 pts", "87% match"). */
export interface ShownReason {
  kind: string;
  label: string;
  detail: string;
  weight: number;
  amount: string;
}

/**
 * A moment's score and the reasons shown under it, from the domain's one rule: each reason once,
 * in whole points that add up to the score shown. A question's answer has its own scale: its
 * relevance, as a match out of 100.
 */
export function shownBreakdown(moment: Pick<Moment, 'score' | 'reasons' | 'type'>): {
  score: number;
  reasons: ShownReason[];
  total: string | undefined;
} {
  const { score, parts } = scoreBreakdown(moment.reasons, moment.score);
  const relevance = moment.type === 'search_snippet';
  return {
    score,
    reasons: parts.map((part) => ({
      ...part,
      label: reasonLabel(part.kind),
      amount:
        relevance && part.kind === 'relevance'
          ? t('moments.reason.match', { percent: part.weight })
          : t('moments.reason.points', {
              points: `${part.weight >= 0 ? '+' : '−'}${Math.abs(part.weight)}`,
            }),
    })),
    total: relevance || parts.length < 2 ? undefined : t('moments.reason.total', { score }),
  };
}

/** The absolute address of an in-app path, for copying a share link. */
export function absoluteLink(path: string, origin: string = window.location.origin): string {
  return new URL(path, origin).toString();
}
