/** Answers whether a user has a browser connected to the realtime channel right now. */
export interface UserPresence {
  isWatching(userId: string): Promise<boolean>;
}

/** This process's realtime connections. */
export interface LocalPresence {
  isConnected(userId: string): boolean;
}

/** The connections of every process on the database (modules/deployment ServerRegistry). */
export interface SharedPresence {
  isConnected(userId: string): Promise<boolean>;
  presenceChanged(userId: string, connected: boolean): void;
}

/**
 * The presence the mail layer asks before mailing about finished work. The STOMP server is
 * attached after the services are built (server.ts); the shared record, once the process has
 * joined the others on the database, answers for the browsers connected to other processes (a
 * worker-only process has none of its own).
 */
export class PresenceRegistry implements UserPresence {
  private source: LocalPresence | null = null;
  private shared: SharedPresence | null = null;

  attach(source: LocalPresence): void {
    this.source = source;
  }

  share(shared: SharedPresence): void {
    this.shared = shared;
  }

  /** Told by this process's STOMP server: kept in the shared record for the other processes. */
  changed(userId: string, connected: boolean): void {
    this.shared?.presenceChanged(userId, connected);
  }

  /** A browser connected to this process. */
  isConnected(userId: string): boolean {
    return this.source?.isConnected(userId) ?? false;
  }

  /** A browser connected to this process or to any other live one. */
  async isWatching(userId: string): Promise<boolean> {
    if (this.isConnected(userId)) return true;
    return (await this.shared?.isConnected(userId)) ?? false;
  }
}
