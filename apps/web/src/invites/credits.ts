import { formatCredits } from '@moments/domain/format';
import { t } from '../messages/catalogue';

/** A reward as the invite pages show it in bold: "20 credits", "1 extra credit". */
export function rewardCredits(units: number, { extra = false } = {}): string {
  const credits = formatCredits(units);
  const one = credits === '1';
  if (extra) return t(one ? 'invites.extraCredits.one' : 'invites.extraCredits.other', { credits });
  return t(one ? 'invites.credits.one' : 'invites.credits.other', { credits });
}
