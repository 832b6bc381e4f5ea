import type { TaskKind } from '@moments/contract';

/**
 * Where a finished task's result lives: a caption task's captions page, the moments of
 * a moment-finding or question task. Mails, notifications, task cards and the moments route all
 * lead there, so a caption task never ends on a moments page that has nothing to show.
 */
export function taskResultPath(task: { id: string; kind: TaskKind | string }): string {
  return task.kind === 'caption' ? `/video/${task.id}/captions` : `/video/${task.id}/moments`;
}

/** What a finished task made, as a mail or a dialog names it. */
export function taskResultNoun(kind: TaskKind | string): 'captions' | 'moments' {
  return kind === 'caption' ? 'captions' : 'moments';
}
