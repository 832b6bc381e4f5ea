/**
 * The password rule, shared by the sign-up form and the server: a length floor plus a maintained
 * strength estimator (zxcvbn-ts, with its common-password, name and keyboard-pattern dictionaries),
 * so patterns like `12341234` or `qwertyuiop` are refused however long they are (NIST 800-63B).
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_LENGTH = 8;
/** zxcvbn's 0-4 scale; 3 is "safely unguessable" (about 10^8 guesses or more). */
export const MIN_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    translations: zxcvbnEnglish.translations,
    graphs: zxcvbnCommon.adjacencyGraphs,
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
  });
  return estimator;
}

/**
 * Why a password is too weak for this account, or null when it is acceptable: a code the web words
 * through its catalogue, or (for `guessable`) the estimator's own advice, which is English.
 */
export type PasswordProblem =
  { code: 'tooShort'; min: number } | { code: 'isEmail' } | { code: 'guessable'; advice: string };
export function passwordProblem(
  password: string,
  email: string,
  username = '',
): PasswordProblem | null {
  if (password.length < MIN_PASSWORD_LENGTH) return { code: 'tooShort', min: MIN_PASSWORD_LENGTH };
  const lower = password.toLowerCase();
  const localPart = email.split('@')[0]?.toLowerCase() ?? '';
  if (lower === email.toLowerCase() || lower === localPart) return { code: 'isEmail' };
  // Only the first 100 characters are scored: the estimator is slow on very long input.
  const result = strengthEstimator().check(
    password.slice(0, 100),
    [email, localPart, username].filter(Boolean),
  );
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const warning = result.feedback.warning;
  const suggestion = result.feedback.suggestions[0];
  const advice = [
    warning ?? 'This password is easy to guess',
    suggestion ?? 'Add another uncommon word',
  ]
    .map((part) => part.replace(/\.$/, ''))
    .join('. ');
  return { code: 'guessable', advice };
}

/** `passwordProblem` in English, as the server answers it. */
export function passwordWeakness(password: string, email: string, username = ''): string | null {
  const problem = passwordProblem(password, email, username);
  if (!problem) return null;
  if (problem.code === 'tooShort') return `Use at least ${problem.min} characters`;
  if (problem.code === 'isEmail') return 'Do not use your email as your password';
  return problem.advice;
}
