import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMomentsClient } from '@moments/client';
import packageJson from '../package.json' with { type: 'json' };
import { createMomentsMcpServer } from './tools.js';

/**
 * `npx moments-mcp`: the same tools for a local agent over stdio, calling a Moments server at
 * `--url` (or MOMENTS_URL) with `--token` (or MOMENTS_TOKEN). Standard output is the protocol's;
 * anything for a person goes to standard error.
 */
const USAGE = `usage: moments-mcp --url http://127.0.0.1:8080 --token <token>
  (or MOMENTS_URL and MOMENTS_TOKEN in the environment)
`;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values: { url?: string; token?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(USAGE);
    return 0;
  }
  const url = values.url ?? env.MOMENTS_URL;
  const token = values.token ?? env.MOMENTS_TOKEN;
  if (!url || !token || !URL.canParse(url)) {
    process.stderr.write(`moments-mcp needs the server's address and a token.\n${USAGE}`);
    return 2;
  }
  const server = createMomentsMcpServer(createMomentsClient({ baseUrl: url, token }), {
    publicUrl: url,
    version: packageJson.version,
  });
  await server.connect(new StdioServerTransport());
  return -1;
}

const code = await main(process.argv.slice(2), process.env);
// -1: serving until the agent closes standard input.
if (code >= 0) process.exit(code);
