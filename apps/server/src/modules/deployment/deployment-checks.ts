import { createHmac } from 'node:crypto';

/** What every process on one database must agree on, as each records it in its row. */
export interface SharedSettings {
  roles: string[];
  queues: string[];
  bus: string;
  /** PUBLIC_URL as set, '' when unset. */
  publicUrl: string;
  secretFingerprint: string;
}

export interface PeerProcess extends SharedSettings {
  hostname: string;
  pid: number;
}

/**
 * Equal secrets give equal fingerprints, and the fingerprint tells nothing about the secret
 * (an HMAC of a fixed text under it, shortened).
 */
export function secretFingerprint(secret: Buffer | string): string {
  return createHmac('sha256', secret)
    .update('moments app secret fingerprint v1')
    .digest('hex')
    .slice(0, 24);
}

const nameOf = (peer: PeerProcess) =>
  `${peer.roles.join('+')}${peer.queues.length ? ` (${peer.queues.join(',')})` : ''} on ${peer.hostname} pid ${peer.pid}`;

/**
 * Why this process must not join the live ones: each differing setting once, naming a process
 * that has the other value and how to make them equal. Empty when they agree.
 */
export function settingsConflicts(self: SharedSettings, peers: PeerProcess[]): string[] {
  const problems: string[] = [];
  const secretPeer = peers.find((peer) => peer.secretFingerprint !== self.secretFingerprint);
  if (secretPeer) {
    problems.push(
      `  APP_SECRET: differs from the one of the running ${nameOf(secretPeer)}: links one signs ` +
        '(unsubscribe, pictures, files, page cursors) the other refuses. Set the same APP_SECRET ' +
        '(32 characters or more, e.g. from `openssl rand -hex 32`) on every machine, e.g. in ' +
        '/etc/moments/moments.env, and start again',
    );
  }
  const busPeer = peers.find((peer) => peer.bus !== self.bus);
  if (busPeer) {
    problems.push(
      `  REALTIME_BUS: ${self.bus} here, ${busPeer.bus} on the running ${nameOf(busPeer)}: ` +
        "progress one publishes never reaches the other's browsers (they would see only " +
        '"queued"). Set the same REALTIME_BUS (and REDIS_URL for redis) on every machine',
    );
  }
  // Compared where both set it: unset, each process links to its own listen address (one box).
  const urlPeer = self.publicUrl
    ? peers.find((peer) => peer.publicUrl && peer.publicUrl !== self.publicUrl)
    : undefined;
  if (urlPeer) {
    problems.push(
      `  PUBLIC_URL: ${self.publicUrl} here, ${urlPeer.publicUrl} on the running ${nameOf(urlPeer)}: ` +
        'links in mail would point at different addresses. Set the same PUBLIC_URL (the address ' +
        'people open) on every machine',
    );
  }
  return problems;
}
