/**
 * Calling a server started as its own process (support/process.ts) over HTTP, as a user would:
 * sign up, start tasks on links, wait for them to end.
 */
import type { ServerProcess } from './process.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies of many shapes
export type Json = any;

/** Calls the API of a spawned server with a bearer token; returns the `data` of the envelope. */
export function client(server: () => ServerProcess, token?: () => string) {
  return async (method: string, route: string, body?: unknown): Promise<Json> => {
    const response = await fetch(`${server().url}${route}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token()}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const envelope = (await response.json()) as { message: string; data: Json };
    if (response.status !== 200)
      throw new Error(`${method} ${route}: ${response.status} ${envelope.message}`);
    return envelope.data;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value other than undefined; `what` names it on timeout. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined> | T | undefined,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(intervalMs);
  }
}

/** The `feature` entitlement of the signed-in user (limit and usage). */
export async function entitlement(call: ReturnType<typeof client>, feature: string) {
  const info = await call('GET', '/api/user/info');
  return info.entitlements.find((e: { feature: string }) => e.feature === feature) as {
    limit: number;
    usage: number;
  };
}

/** Starts a task on a direct link and waits until it ends (DONE or ERROR). */
export async function waitForTaskEnd(
  call: ReturnType<typeof client>,
  taskId: string,
  timeoutMs: number,
) {
  return waitFor(
    `task ${taskId} to end`,
    timeoutMs,
    async () => {
      const task = await call('GET', `/api/highlight_moment/task?id=${taskId}`);
      return task.status === 'DONE' || task.status === 'ERROR' ? task : undefined;
    },
    500,
  );
}

export const startLinkTask = async (call: ReturnType<typeof client>, url: string) =>
  (await call('POST', '/api/highlight_moment/task/start?url_source=direct&source_lang=en', { url }))
    .id as string;

/** Signs a new user up; the returned caller carries their session `token` for raw requests. */
export async function signUp(server: () => ServerProcess, name: string) {
  const signup = await client(server)('POST', '/api/auth/signup', {
    email: `${name}@example.com`,
    password: 'faults are expected',
    username: name,
  });
  const token = signup.token as string;
  return Object.assign(
    client(server, () => token),
    { token },
  );
}
