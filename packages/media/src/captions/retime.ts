/**
 * Transcript corrections re-time captions (design.md, "where the product must beat the others"):
 * words the edit leaves alone keep their recognised timings; a touched span's time is shared by
 * its new words in proportion to their length.
 */
import { diffArrays } from 'diff';
import { splitIntoWords, spreadOverSpan, type CaptionWord } from './words';

/** An inserted word gets at least this much of a silent gap before it steals a neighbour's time. */
const MIN_INSERTED_WORD_MS = 120;

type Step =
  | { kind: 'same'; original: number; edited: number }
  | {
      kind: 'changed';
      originalFrom: number;
      originalTo: number;
      editedFrom: number;
      editedTo: number;
    };

/**
 * Re-time `editedText` against the words it was edited from. Matching ignores case and
 * punctuation ("hello" → "Hello," keeps its timing, with the new spelling).
 */
export function retimeWords(
  originalWords: readonly CaptionWord[],
  editedText: string,
  language?: string,
): CaptionWord[] {
  const edited = splitIntoWords(editedText, language);
  const original = [...originalWords].sort((a, b) => a.startMs - b.startMs);
  if (edited.length === 0) return [];
  if (original.length === 0) return spreadOverSpan(edited, 0, 0);

  const steps = alignWords(
    original.map((word) => matchKey(word.text)),
    edited.map(matchKey),
  );
  const result: CaptionWord[] = [];
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    if (step.kind === 'same') {
      const word = original[step.original]!;
      result.push({ text: edited[step.edited]!, startMs: word.startMs, endMs: word.endMs });
      continue;
    }
    let { originalFrom, originalTo, editedFrom, editedTo } = step;
    if (editedFrom === editedTo) continue; // words deleted: their time becomes a pause

    let startMs: number;
    let endMs: number;
    if (originalTo > originalFrom) {
      startMs = original[originalFrom]!.startMs;
      endMs = original[originalTo - 1]!.endMs;
    } else {
      // Pure insertion: use the pause around it if it is long enough, else share a neighbour's time.
      const before = original[originalFrom - 1];
      const after = original[originalFrom];
      const needed = MIN_INSERTED_WORD_MS * (editedTo - editedFrom);
      const previousStep = steps[index - 1];
      const nextStep = steps[index + 1];
      if (before && after && after.startMs - before.endMs >= needed) {
        startMs = before.endMs;
        endMs = after.startMs;
      } else if (previousStep?.kind === 'same') {
        result.pop();
        editedFrom--;
        originalFrom--;
        startMs = original[originalFrom]!.startMs;
        endMs = after ? Math.max(before!.endMs, after.startMs) : before!.endMs;
      } else if (nextStep?.kind === 'same') {
        index++; // the next word is re-timed together with the insertion
        editedTo++;
        originalTo++;
        startMs = before ? before.endMs : after!.startMs;
        endMs = after!.endMs;
      } else {
        startMs = before?.endMs ?? after?.startMs ?? 0;
        endMs = after?.startMs ?? before?.endMs ?? 0;
      }
    }
    result.push(...spreadOverSpan(edited.slice(editedFrom, editedTo), startMs, endMs));
  }
  return result;
}

function matchKey(text: string): string {
  const letters = text
    .normalize('NFKC')
    .toLocaleLowerCase()
    .replace(/[\p{P}\s]/gu, '');
  // A word of punctuation only ("—", "?") still matches only itself.
  return letters || text;
}

function alignWords(original: string[], edited: string[]): Step[] {
  const steps: Step[] = [];
  let originalIndex = 0;
  let editedIndex = 0;
  let open: Extract<Step, { kind: 'changed' }> | undefined;
  for (const change of diffArrays(original, edited)) {
    const count = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      open = undefined;
      for (let offset = 0; offset < count; offset++) {
        steps.push({ kind: 'same', original: originalIndex++, edited: editedIndex++ });
      }
      continue;
    }
    if (!open) {
      open = {
        kind: 'changed',
        originalFrom: originalIndex,
        originalTo: originalIndex,
        editedFrom: editedIndex,
        editedTo: editedIndex,
      };
      steps.push(open);
    }
    if (change.removed) originalIndex = open.originalTo += count;
    else editedIndex = open.editedTo += count;
  }
  return steps;
}
