import { describePlan } from '@moments/domain';

/**
 * A plan as receipts, invoices and checkout pages name it: "Pro, education (yearly)". The words
 * are the domain's, the same the web's plan pages show.
 */
export function planLabel(plan: string): string {
  return describePlan(plan);
}
