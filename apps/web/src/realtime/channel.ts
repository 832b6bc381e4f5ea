import { ActivationState, Client, TickerStrategy, type IFrame } from '@stomp/stompjs';
import {
  REALTIME_HEARTBEAT_MS,
  REALTIME_RECONNECT_DELAY_MS,
  STOMP_ENDPOINT,
  STOMP_USER_DESTINATION,
} from '@moments/contract';
import { parseRealtimeMessage, type RealtimeMessage } from './messages';

/** The client states of the realtime connection. */
type RealtimeClientState = 'active' | 'deactivating' | 'inactive';

export interface RealtimeStatus {
  state: RealtimeClientState;
  /** True between the CONNECTED frame and the socket closing. */
  connected: boolean;
  /** The CONNECTED frame's `session` header; sent as X-Stomp-Session so our own sync echo is skipped. */
  sessionId: string | null;
  /** The last protocol error (ERROR frame), stored as a message. */
  lastError: string | null;
}

export type RealtimeListener = (message: RealtimeMessage) => void;

const STATE_NAMES: Record<ActivationState, RealtimeClientState> = {
  [ActivationState.ACTIVE]: 'active',
  [ActivationState.DEACTIVATING]: 'deactivating',
  [ActivationState.INACTIVE]: 'inactive',
};

/** ws:// or wss:// on the page's own origin. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location) {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${STOMP_ENDPOINT}`;
}

/**
 * The app's one STOMP connection: it exists only while a user is logged in, subscribes to
 * the user's queue, heart-beats every 4 s from a worker (background tabs throttle timers, and the
 * server drops a connection silent for ~8 s) and reconnects 5 s after a drop.
 */
class RealtimeChannel {
  private client: Client | null = null;
  private userId: string | null = null;
  private status: RealtimeStatus = {
    state: 'inactive',
    connected: false,
    sessionId: null,
    lastError: null,
  };
  private readonly statusListeners = new Set<() => void>();
  private readonly messageListeners = new Set<RealtimeListener>();
  private readonly connectListeners = new Set<(reconnected: boolean) => void>();
  private hasConnected = false;

  /**
   * Connects for `userId`, a no-op if already so. `ticket` is asked before every (re)connect for
   * the CONNECT frame's `token` header: realtime tickets are single-use.
   */
  start(
    userId: string,
    ticket: () => Promise<string | null>,
    brokerURL: string = realtimeUrl(),
  ): void {
    if (this.client && this.userId === userId) return;
    void this.stop();
    this.userId = userId;
    this.hasConnected = false;
    const client = new Client({
      brokerURL,
      beforeConnect: async () => {
        client.connectHeaders = { token: (await ticket()) ?? '' };
      },
      heartbeatIncoming: REALTIME_HEARTBEAT_MS,
      heartbeatOutgoing: REALTIME_HEARTBEAT_MS,
      heartbeatStrategy: TickerStrategy.Worker,
      reconnectDelay: REALTIME_RECONNECT_DELAY_MS,
      onConnect: (frame: IFrame) => {
        if (this.client !== client) return;
        client.subscribe(STOMP_USER_DESTINATION, (message) => {
          const parsed = parseRealtimeMessage(message.body);
          if (parsed) this.emit(parsed);
        });
        this.update({ connected: true, sessionId: frame.headers.session ?? null });
        const reconnected = this.hasConnected;
        this.hasConnected = true;
        for (const listener of [...this.connectListeners]) listener(reconnected);
      },
      onStompError: (frame: IFrame) => {
        if (this.client !== client) return;
        const detail = frame.body.trim();
        const message = frame.headers.message ?? 'The realtime server reported an error';
        this.update({ lastError: detail ? `${message}: ${detail}` : message });
      },
      onWebSocketClose: () => {
        if (this.client === client) this.update({ connected: false, sessionId: null });
      },
      onChangeState: (state) => {
        if (this.client === client) this.update({ state: STATE_NAMES[state] });
      },
    });
    this.client = client;
    client.activate();
  }

  /** Tears the connection down (logout); pending reconnects are cancelled. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.userId = null;
    if (!client) return;
    this.update({ connected: false, sessionId: null });
    await client.deactivate();
    this.update({ state: 'inactive' });
  }

  getStatus = (): RealtimeStatus => this.status;

  onStatusChange = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** Every message from the user's queue; returns the unsubscribe function. */
  subscribe(listener: RealtimeListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /**
   * Called on every connect; `reconnected` is true after a drop, when views should re-read what
   * they may have missed while offline.
   */
  onConnect(listener: (reconnected: boolean) => void): () => void {
    this.connectListeners.add(listener);
    return () => this.connectListeners.delete(listener);
  }

  private emit(message: RealtimeMessage) {
    for (const listener of [...this.messageListeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error('realtime listener failed', error);
      }
    }
  }

  private update(patch: Partial<RealtimeStatus>) {
    const next = { ...this.status, ...patch };
    const unchanged = Object.entries(patch).every(
      ([key, value]) => this.status[key as keyof RealtimeStatus] === value,
    );
    if (unchanged) return;
    this.status = next;
    for (const listener of [...this.statusListeners]) listener();
  }
}

/** The app's single channel. */
export const realtimeChannel = new RealtimeChannel();

/** Header for notification calls: the server then skips the sync echo to this very client. */
export function stompSessionHeaders(): Record<string, string> {
  const sessionId = realtimeChannel.getStatus().sessionId;
  return sessionId ? { 'X-Stomp-Session': sessionId } : {};
}
