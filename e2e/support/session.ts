import type { Browser, BrowserContext } from 'playwright-core';
import { newAccount, type TestAccount } from './accounts';

export interface SignedInContext {
  context: BrowserContext;
  account: TestAccount;
  /** The bearer token from login (what the realtime client sends). */
  token: string;
}

/**
 * A browser context already logged in as `account` (created when absent) through the real API,
 * with the home pop-ups marked as seen, as the login page would leave it.
 */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  options: { account?: TestAccount; viewport?: { width: number; height: number } } = {},
): Promise<SignedInContext> {
  const account = options.account ?? newAccount('e2e');
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  if (!options.account) {
    const signup = await context.request.post('/api/auth/signup', { data: account });
    if (!signup.ok()) throw new Error(`signup failed: ${signup.status()} ${await signup.text()}`);
  }
  const login = await context.request.post('/api/auth/login', {
    data: { email: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  await context.addInitScript((authToken: string) => {
    localStorage.setItem('moments.authToken', authToken);
    localStorage.setItem('moments.welcomeOfferSeen', '1');
    localStorage.setItem('moments.communityChatClosed', '1');
    localStorage.setItem('moments.updateBannerDismissed', '1');
    localStorage.setItem('moments.yearlyGuardDismissed', 'free');
  }, token);
  return { context, account, token };
}
