import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface IsolatedNetwork {
  /** The namespace's own address: a server inside listens here, the host reaches it. */
  innerAddress: string;
  /** Prefix a command with this to run it inside the namespace. */
  launcher: string[];
  remove(): Promise<void>;
}

/** Why a network namespace cannot be made here (not root, no iproute2), or null when it can. */
export async function networkNamespaceUnavailable(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    await run('ip', ['-V']);
    return null;
  } catch {
    // No `ip` binary: the reason is the message, nothing else to log.
    return 'the `ip` command (iproute2) is not installed';
  }
}

/**
 * A network namespace joined to the host by one veth pair and nothing else: no default route,
 * so a process inside reaches only its own loopback and the host's end of the pair. What it
 * tries to fetch anywhere else fails at once (no route, no resolver).
 */
export async function createIsolatedNetwork(): Promise<IsolatedNetwork> {
  const id = `${process.pid % 10000}${randomInt(1000)}`;
  const name = `mfuzz${id}`;
  const [hostSide, innerSide] = [`mfh${id}`, `mfn${id}`];
  const subnet = `10.${randomInt(200, 250)}.${randomInt(256)}`;
  const [hostAddress, innerAddress] = [`${subnet}.1`, `${subnet}.2`];
  const inside = ['ip', 'netns', 'exec', name];
  const steps: string[][] = [
    ['ip', 'netns', 'add', name],
    ['ip', 'link', 'add', hostSide, 'type', 'veth', 'peer', 'name', innerSide],
    ['ip', 'link', 'set', innerSide, 'netns', name],
    ['ip', 'addr', 'add', `${hostAddress}/30`, 'dev', hostSide],
    ['ip', 'link', 'set', hostSide, 'up'],
    [...inside, 'ip', 'addr', 'add', `${innerAddress}/30`, 'dev', innerSide],
    [...inside, 'ip', 'link', 'set', innerSide, 'up'],
    [...inside, 'ip', 'link', 'set', 'lo', 'up'],
  ];
  const remove = async () => {
    // Deleting the namespace deletes its end of the pair, and with it the host's end; either may
    // be gone already (a half-made network), which is what removing wants.
    await run('ip', ['netns', 'del', name]).catch(() => undefined);
    await run('ip', ['link', 'del', hostSide]).catch(() => undefined);
  };
  try {
    for (const [command, ...args] of steps) await run(command!, args);
  } catch (error) {
    await remove();
    throw error;
  }
  return { innerAddress, launcher: inside, remove };
}
