import { describe, expect, it } from 'vitest';
import { MESSAGES, rawKeysIn, t } from './catalogue';

describe('the message catalogue', () => {
  it("gives the spec's keys a text a person can read", () => {
    expect(t('plan protocol tips')).toMatch(/Terms of Use and the Privacy Policy/);
    for (const [key, text] of Object.entries(MESSAGES)) {
      expect(text.trim(), key).not.toBe('');
      // No text is itself a key of the catalogue.
      expect(Object.keys(MESSAGES).filter((other) => other !== key && other === text)).toEqual([]);
    }
  });

  it('finds a key shown as it is, and not the text it stands for', () => {
    expect(rawKeysIn('Confirm\nplan protocol tips\nCancel')).toEqual(['plan protocol tips']);
    expect(rawKeysIn('A pop-up says popup.yearly.label.')).toEqual(['popup.yearly.label']);
    expect(rawKeysIn(Object.values(MESSAGES).join('\n'))).toEqual([]);
    expect(rawKeysIn('Tools: video translator, subtitles')).toEqual([]);
  });
});
