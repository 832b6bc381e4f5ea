/*
 * The built-in TEST MODE checkout accepts the card numbers Stripe documents for testing, and
 * declines its decline numbers with the same reasons, so people who know one know the other.
 */

export type CardCheck =
  | { ok: true; last4: string; brand: string }
  | { ok: false; field: 'number' | 'expiry' | 'cvc'; message: string };

const DECLINES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': 'Your card was declined: it was reported lost.',
  '4000000000009979': 'Your card was declined: it was reported stolen.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again.',
};

/** Accepted at checkout; later charges on it fail (Stripe's 4000 0000 0000 0341). */
export const FAILS_LATER_LAST4 = '0341';

const luhnValid = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
};

const brandOf = (digits: string) =>
  digits.startsWith('4')
    ? 'Visa'
    : /^5[1-5]|^2[2-7]/.test(digits)
      ? 'Mastercard'
      : /^3[47]/.test(digits)
        ? 'American Express'
        : 'Card';

export function checkTestCard(
  input: { number?: string; expiry?: string; cvc?: string },
  now = new Date(),
): CardCheck {
  const digits = (input.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) {
    return { ok: false, field: 'number', message: 'Your card number is invalid.' };
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry ?? '');
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? Number(expiry[2]!.length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
  if (!expiry || month < 1 || month > 12) {
    return { ok: false, field: 'expiry', message: "Your card's expiration date is incomplete." };
  }
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    return { ok: false, field: 'expiry', message: "Your card's expiration year is in the past." };
  }
  if (!/^\d{3,4}$/.test((input.cvc ?? '').trim())) {
    return { ok: false, field: 'cvc', message: "Your card's security code is incomplete." };
  }
  const decline = DECLINES[digits];
  if (decline) return { ok: false, field: 'number', message: decline };
  return { ok: true, last4: digits.slice(-4), brand: brandOf(digits) };
}
