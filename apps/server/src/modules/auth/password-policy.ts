/** Passwords people reuse most; refused outright (NIST 800-63B: length plus a blocklist). */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'letmein1',
  'abc12345',
  'welcome1',
  '11111111',
  'passw0rd',
  'sunshine1',
]);

export const MIN_PASSWORD_LENGTH = 8;

/** Returns why a password is too weak, or null when it is acceptable. */
export function passwordWeakness(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters`;
  if (new Set(password).size < 4) return 'Use a password with more varied characters';
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return 'This password is too common';
  if (lower === email.toLowerCase() || lower === email.split('@')[0]?.toLowerCase())
    return 'Do not use your email as your password';
  return null;
}
