import type { Task } from '@moments/contract';

/** Calls the API as any client would, with an optional bearer token; unwraps the envelope. */
export function apiClient(baseUrl: string, token?: () => string | undefined) {
  return async function call<T>(
    method: string,
    url: string,
    body?: unknown,
    options: { auth?: boolean } = {},
  ): Promise<T> {
    const bearer = options.auth === false ? undefined : token?.();
    const reply = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await reply.json()) as { message: string; data: T };
    if (reply.status !== 200)
      throw new Error(`${method} ${url}: ${reply.status} ${envelope.message}`);
    return envelope.data;
  };
}
export type ApiCall = ReturnType<typeof apiClient>;

/**
 * Runs the real pipeline on a direct link (download, transcript, moments), started the way the
 * web app starts it, and waits until the task ends. Tests poll; the product pushes.
 */
export async function runLinkTask(
  call: ApiCall,
  video: { url: string; title?: string },
  timeoutMs = 150_000,
): Promise<Task> {
  const started = await call<Task>(
    'POST',
    '/api/highlight_moment/task/start?url_source=direct&source_lang=en&caption_display=source',
    video,
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await call<Task>('GET', `/api/highlight_moment/task?id=${started.id}`);
    if (task.status === 'DONE' || task.status === 'ERROR') return task;
    if (Date.now() > deadline) throw new Error(`task still ${task.status} at ${task.stage}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
