import type { TaskKind } from '@moments/contract';

/*
 * The credit price list (spec §9 quota approximations), charged by video duration per started
 * minute. Amounts are credit units: tenths of a displayed credit (spec §9: shown as amount / 10).
 *
 * | work                         | rate per started minute | spec §9                  |
 * |------------------------------|-------------------------|--------------------------|
 * | summary                      | 10 units (1 credit)     | equal to the limit       |
 * | captions (caption task)      | 20 units (2 credits)    | captions 2x              |
 * | transcript                   | 20 units (2 credits)    | transcripts 2x           |
 * | clips (viral moment task)    | 5 units (0.5 credit)    | clips half               |
 * | finds (moment search task)   | 5 units (0.5 credit)    | finds half               |
 *
 * "Summaries equal to the entitlement limit": a plan's CREDIT limit in credits is how many minutes
 * of video it can summarise; captions and transcripts use it twice as fast, clips and finds half.
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

const startedMinutes = (durationMs: number) => Math.max(1, Math.ceil(durationMs / 60_000));

/** Units a piece of work on `durationMs` of video costs. */
export const workCost = (work: PricedWork, durationMs: number): number =>
  startedMinutes(durationMs) * PRICE_LIST[work];

/** The price-list entry of a task kind: viral → clips, search → finds, caption → captions. */
export const workOfTaskKind = (kind: TaskKind): PricedWork =>
  (({ viral: 'clips', search: 'finds', caption: 'captions' }) as const)[kind];

export const taskCost = (kind: TaskKind, durationMs: number) =>
  workCost(workOfTaskKind(kind), durationMs);
export const summaryCost = (durationSec: number) => workCost('summary', durationSec * 1000);
export const transcriptCost = (durationSec: number) => workCost('transcript', durationSec * 1000);
export const captionCost = (durationSec: number) => workCost('captions', durationSec * 1000);

/** What is left of a limited entitlement; null when unlimited (-1). */
export function remainingUnits(entitlement: { limit: number; usage: number }): number | null {
  return entitlement.limit === -1 ? null : Math.max(0, entitlement.limit - entitlement.usage);
}
