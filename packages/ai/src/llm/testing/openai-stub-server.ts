import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in for a remote OpenAI-compatible service does with each chat request. */
export type StubBehaviour =
  | { kind: 'reply'; content: (request: ChatRequest) => string }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'raw'; body: string }
  | { kind: 'hang' };

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
  authorization?: string;
}

export interface StubServer {
  baseUrl: string;
  requests: ChatRequest[];
  setBehaviour(behaviour: StubBehaviour): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A real HTTP server on 127.0.0.1 speaking the OpenAI chat completions API, for tests. */
export async function startOpenAIStubServer(initial: StubBehaviour): Promise<StubServer> {
  let behaviour = initial;
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end('not found');
      return;
    }
    const body = JSON.parse(await readBody(request)) as ChatRequest;
    body.authorization = request.headers.authorization;
    requests.push(body);
    const current = behaviour;
    if (current.kind === 'hang') return; // never answers; the client's timeout must fire
    if (current.kind === 'status') {
      response.writeHead(current.status, { 'content-type': 'text/plain' }).end(current.body);
      return;
    }
    if (current.kind === 'raw') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(current.body);
      return;
    }
    let content: string;
    try {
      content = current.content(body);
    } catch (error) {
      response.writeHead(500).end(`stub failed: ${(error as Error).message}`);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour(next) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
