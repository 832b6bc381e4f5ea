import type { JobType, TaskKind } from '@moments/contract';

/*
 * The one cost function: what every piece of work costs, in credit units (tenths of a
 * displayed credit: shown as amount / 10). The start form, the clip editor, the caption
 * page, the FAQ and the server's charge all call these functions, so the number shown before
 * Start is the number the ledger charges.
 *
 * | work (charge kind)                 | rate per started minute of video | pricing rule        |
 * |------------------------------------|----------------------------------|---------------------|
 * | summary (summary, summary-refresh) | 10 units (1 credit)              | equal to the limit  |
 * | caption task (caption-task)        | 20 units (2 credits)             | captions 2x         |
 * | transcript                         | 20 units (2 credits)             | transcripts 2x      |
 * | viral moments (task-run)           | 5 units (0.5 credit)             | clips half          |
 * | a question (question)              | 5 units (0.5 credit)             | finds half          |
 * | caption export (caption-export)    | 10 units (1 credit)              | whole-video render  |
 * | clip export (export)               | 1 of the plan's exports          | CANVAS_EXPORT count |
 *
 * A task is its run plus the summary of the video; a question on a video that is already
 * transcribed (a follow-up with root_task_id) reuses the transcript and summary and costs only
 * the question. "Summaries equal to the entitlement limit": a plan's CREDIT limit in credits is
 * how many minutes of video it can summarise.
 */
export const BASE_UNITS_PER_MINUTE = 10;

export type PricedWork = 'summary' | 'captions' | 'transcript' | 'clips' | 'finds';

export const PRICE_LIST: Record<PricedWork, number> = {
  summary: BASE_UNITS_PER_MINUTE,
  captions: BASE_UNITS_PER_MINUTE * 2,
  transcript: BASE_UNITS_PER_MINUTE * 2,
  clips: BASE_UNITS_PER_MINUTE / 2,
  finds: BASE_UNITS_PER_MINUTE / 2,
};

/** Every kind of charge the ledger knows (its typed charge keys carry one of these). */
export const CHARGE_KINDS = [
  'task-run',
  'question',
  'caption-task',
  'summary',
  'summary-refresh',
  'export',
  'caption-export',
] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

/** What the history page calls each kind of charge. */
/**
 * Why credits went back, kept with the refund so the credit history can say it: the work failed,
 * it was deleted before it finished, or a summary was not made (no speech in the video, or none
 * could be made).
 */
export const REFUND_CAUSES = ['failed', 'deleted', 'no_speech', 'not_made'] as const;
export type RefundCause = (typeof REFUND_CAUSES)[number];

export const CHARGE_KIND_LABELS: Record<ChargeKind, string> = {
  'task-run': 'Viral moments',
  question: 'Question',
  'caption-task': 'Caption task',
  summary: 'Summary',
  'summary-refresh': 'Summary refresh',
  export: 'Clip export',
  'caption-export': 'Caption video export',
};

/**
 * The reasons the ledger writes on the lines it makes itself (kept in English in the database,
 * for an operator reading it); a screen never shows them but words `ledgerLine`'s reading.
 */
export const LEDGER_REASONS = {
  topUp: 'Credit top-up',
  inviteReward: 'Invite reward',
  planPeriodEnd: 'End of the plan period',
  refundPrefix: 'Refund: ',
} as const;

/** The plan grant's reason: its change action (Start when none) and the plan's name. */
export const planGrantReason = (action: string | null | undefined, plan: string) =>
  `${action ?? 'Start'} ${plan}`;

/** What a ledger line is, read from what the ledger stored, for a screen to word. */
export type LedgerLine =
  | { what: 'charge' | 'refund'; work: ChargeKind | null }
  | { what: 'plan'; action: string | null; plan: string }
  | { what: 'plan-end' | 'top-up' | 'invite-reward' | 'other' };

/** Reads a ledger line's stored reason (and action) back into what it is. */
export function ledgerLine(movement: {
  kind: string;
  reason: string;
  action: string | null;
}): LedgerLine {
  const workOf = (label: string) =>
    CHARGE_KINDS.find((kind) => CHARGE_KIND_LABELS[kind] === label.trim()) ?? null;
  if (movement.kind === 'charge') return { what: 'charge', work: workOf(movement.reason) };
  if (movement.kind === 'refund') {
    const charged = movement.reason.startsWith(LEDGER_REASONS.refundPrefix)
      ? movement.reason.slice(LEDGER_REASONS.refundPrefix.length)
      : movement.reason;
    return { what: 'refund', work: workOf(charged) };
  }
  if (movement.reason === LEDGER_REASONS.planPeriodEnd) return { what: 'plan-end' };
  if (movement.reason === LEDGER_REASONS.topUp) return { what: 'top-up' };
  if (movement.reason === LEDGER_REASONS.inviteReward) return { what: 'invite-reward' };
  const grant = /^(\S+) (\S+)$/.exec(movement.reason);
  if (movement.kind === 'grant' && grant) {
    const action = grant[1] === 'Start' ? null : grant[1]!;
    if (action === null || action === movement.action) {
      return { what: 'plan', action, plan: grant[2]! };
    }
  }
  return { what: 'other' };
}

export const startedMinutes = (durationMs: number) =>
  Math.max(1, Math.ceil(Math.max(0, durationMs) / 60_000));

/** Units a piece of work on `durationMs` of video costs. */
export const workCost = (work: PricedWork, durationMs: number): number =>
  startedMinutes(durationMs) * PRICE_LIST[work];

/** The price-list entry of a task kind: viral → clips, search → finds, caption → captions. */
export const workOfTaskKind = (kind: TaskKind): PricedWork =>
  (({ viral: 'clips', search: 'finds', caption: 'captions' }) as const)[kind];

/** The charge kind of a task's run: viral → task-run, search → question, caption → caption-task. */
export const chargeKindOfTask = (kind: TaskKind): ChargeKind =>
  (({ viral: 'task-run', search: 'question', caption: 'caption-task' }) as const)[kind];

/** The run alone (without the summary). */
export const taskRunCost = (kind: TaskKind, durationMs: number) =>
  workCost(workOfTaskKind(kind), durationMs);

export interface TaskQuote {
  /** The run: moment finding, the question, or captions. */
  run: number;
  runKind: ChargeKind;
  /** The summary of the video; 0 when it is reused from the task this one follows. */
  summary: number;
  /** What the ledger charges at start, and what the start form shows. */
  total: number;
}

/**
 * What starting (or retrying) a task costs. `reusesTranscript`: a follow-up on a video already
 * transcribed, which costs only its run.
 */
export function taskQuote(
  kind: TaskKind,
  durationMs: number,
  options: { reusesTranscript?: boolean } = {},
): TaskQuote {
  const run = taskRunCost(kind, durationMs);
  const summary = options.reusesTranscript ? 0 : workCost('summary', durationMs);
  return { run, runKind: chargeKindOfTask(kind), summary, total: run + summary };
}

/** What a task costs in total (the start form's number). */
export const taskCost = (kind: TaskKind, durationMs: number, reusesTranscript = false) =>
  taskQuote(kind, durationMs, { reusesTranscript }).total;

/** A summary made again from the stored transcript. */
export const summaryRefreshCost = (durationMs: number) => workCost('summary', durationMs);

export interface ExportQuote {
  kind: Extract<ChargeKind, 'export' | 'caption-export'>;
  /** Clip exports use the plan's export count; the whole-video caption export uses credits. */
  feature: 'CREDIT' | 'CANVAS_EXPORT';
  amount: number;
}

/**
 * What an export costs: one of the plan's exports, or credits by duration for the caption video.
 * `exportedMs` is the length of the file made: with words, fillers or pauses cut out, the cut's
 * length (the cut plan's), not the span of the source it is cut from.
 */
export function exportQuote(type: JobType, exportedMs: number): ExportQuote {
  if (type === 'ANIMATED_CAPTION_EXPORT') {
    return { kind: 'caption-export', feature: 'CREDIT', amount: workCost('summary', exportedMs) };
  }
  return { kind: 'export', feature: 'CANVAS_EXPORT', amount: 1 };
}

/** What is left of a limited entitlement; null when unlimited (-1). */
export function remainingUnits(entitlement: { limit: number; usage: number }): number | null {
  return entitlement.limit === -1 ? null : Math.max(0, entitlement.limit - entitlement.usage);
}
