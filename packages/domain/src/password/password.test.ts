import { describe, expect, it } from 'vitest';
import { passwordWeakness } from './index.js';

describe('password rule (strength estimator)', () => {
  it('refuses long but guessable patterns the old length-and-blocklist rule let through', () => {
    for (const guessable of ['12341234', 'abcdabcd', 'qwertyasdf', 'iloveyou2', 'Summer2024']) {
      expect(passwordWeakness(guessable, 'ada@example.com'), guessable).not.toBeNull();
    }
  });

  it('refuses the account own email, name and short passwords, with a readable reason', () => {
    expect(passwordWeakness('lovelace.ada', 'lovelace.ada@example.com')).toMatch(/email/i);
    expect(passwordWeakness('ada.lovelace1', 'x@example.com', 'ada.lovelace')).not.toBeNull();
    expect(passwordWeakness('K#9v', 'ada@example.com')).toMatch(/at least 8/);
  });

  it('accepts passphrases and random strings', () => {
    for (const strong of [
      'violet kettle orbit',
      'Tr0ub4dor&3x',
      'mq7#Lp2!vZ9e',
      'analytical engine',
    ]) {
      expect(passwordWeakness(strong, 'ada@example.com'), strong).toBeNull();
    }
  });
});
