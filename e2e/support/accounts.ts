import { randomUUID } from 'node:crypto';

export interface TestAccount {
  email: string;
  password: string;
  username: string;
}

export function newAccount(prefix = 'user'): TestAccount {
  const id = randomUUID().slice(0, 8);
  return {
    email: `${prefix}-${id}@example.com`,
    password: `Clips-${id}-2024`,
    username: `${prefix} ${id}`,
  };
}

/** Creates the account through the real API (no browser), for tests that start logged out. */
export async function registerAccount(baseUrl: string, account: TestAccount): Promise<void> {
  const reply = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (reply.status !== 200) throw new Error(`signup failed: ${reply.status} ${await reply.text()}`);
}
