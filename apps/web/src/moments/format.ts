import { formatDuration } from '@moments/domain/format';
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
};

/** A reader's label for a reason kind (spec: the hook, payoff, emotion, pace, quotability, topic). */
export function reasonLabel(kind: string): string {
  return REASON_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The absolute address of an in-app path, for copying a share link. */
export function absoluteLink(path: string, origin: string = window.location.origin): string {
  return new URL(path, origin).toString();
}
