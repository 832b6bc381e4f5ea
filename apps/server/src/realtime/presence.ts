/** Answers whether a user has a browser connected to the realtime channel right now. */
export interface UserPresence {
  isConnected(userId: string): boolean;
}

/**
 * The presence the mail layer asks before mailing about finished work. The STOMP server is
 * attached after the services are built (server.ts); until then, and in a worker-only process
 * that has no STOMP server, nobody counts as connected, so the mail goes out.
 */
export class PresenceRegistry implements UserPresence {
  private source: UserPresence | null = null;

  attach(source: UserPresence): void {
    this.source = source;
  }

  isConnected(userId: string): boolean {
    return this.source?.isConnected(userId) ?? false;
  }
}
