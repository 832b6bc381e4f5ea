import { randomUUID } from 'node:crypto';
import { createMomentsClient, unwrap } from '@moments/client';

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
  await unwrap(createMomentsClient({ baseUrl }).POST('/api/auth/signup', { body: account })).catch(
    (error: Error) => {
      throw new Error(`signup failed: ${error.message}`);
    },
  );
}
