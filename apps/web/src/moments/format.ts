import { formatDuration } from '@moments/domain/format';

/** "1:05 – 1:40" for a moment's span in milliseconds. */
export function formatSpan(startMs: number, endMs: number): string {
  return `${formatDuration(startMs)} – ${formatDuration(endMs)}`;
}

/** "35 s" or "1 min 20 s": how long a clip is. */
export function formatClipLength(startMs: number, endMs: number): string {
  const seconds = Math.max(0, Math.round((endMs - startMs) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return rest ? `${Math.floor(seconds / 60)} min ${rest} s` : `${seconds / 60} min`;
}

export type ScoreTier = 'high' | 'medium' | 'low';

/** Bands for the score's colour: what a user reads at a glance (0–100). */
export function scoreTier(score: number): ScoreTier {
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  return 'low';
}

/** What a score means, in the words the moments page shows (the judge is calibrated to these bands). */
export function scoreMeaning(kind: 'viral' | 'search' = 'viral'): string {
  return kind === 'search'
    ? 'Relevance out of 100: 70+ answers the question directly, 40–69 touches on it, under 40 barely.'
    : 'Score out of 100: 70+ a strong clip on its own, 40–69 worth a look, under 40 ordinary talk.';
}

const REASON_LABELS: Record<string, string> = {
  hook: 'Strong hook',
  payoff: 'Complete thought with a payoff',
  emotion: 'Emotion and emphasis',
  pace: 'Good pace',
  quotability: 'Quotable line',
  salience: 'Central topic',
  audience: 'Fits the audience',
  relevance: 'Answers the question',
  judge: 'AI judge',
};

/** A reader's label for a reason kind (spec: the hook, payoff, emotion, pace, quotability, topic). */
export function reasonLabel(kind: string): string {
  return REASON_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The absolute address of an in-app path, for copying a share link. */
export function absoluteLink(path: string, origin: string = window.location.origin): string {
  return new URL(path, origin).toString();
}
