import { Redis } from 'ioredis';
import { EnvelopeBus } from './bus.js';
import { fallbackLogger, type RealtimeLogger } from './logger.js';

export interface RedisBusOptions {
  url: string;
  /** Pub/sub channel; instances that should share messages use the same one. */
  channel?: string;
  logger?: RealtimeLogger;
}

/**
 * Fan-out over Redis pub/sub. A subscribed connection can run no other command, hence a
 * second connection for publishing. ioredis reconnects and re-subscribes by itself; messages
 * published while an instance is disconnected are lost for it (clients reload history).
 */
export class RedisBus extends EnvelopeBus {
  private readonly publisher: Redis;
  private subscriber: Redis | null = null;
  private subscribing: Promise<void> | null = null;

  constructor(private readonly options: RedisBusOptions) {
    super(options.channel ?? 'moments:realtime', options.logger ?? fallbackLogger);
    this.publisher = this.connect('publisher');
  }

  protected async send(payload: string): Promise<void> {
    await this.publisher.publish(this.channel, payload);
  }

  protected async shutdown(): Promise<void> {
    const connections = [this.publisher, this.subscriber].filter((c): c is Redis => c !== null);
    // QUIT lets pending publishes finish; a connection that is down would queue it forever.
    await Promise.allSettled(
      connections.map((connection) =>
        connection.status === 'ready' ? connection.quit() : connection.disconnect(),
      ),
    );
    for (const connection of connections) connection.disconnect();
  }

  private connect(role: string): Redis {
    const connection = new Redis(this.options.url, { lazyConnect: false });
    // Without an 'error' listener a lost Redis would crash the process; ioredis retries anyway.
    connection.on('error', (error: Error) => {
      if (!this.closed) this.logger.warn({ err: error, role }, 'Realtime Redis connection error');
    });
    return connection;
  }

  protected listen(): Promise<void> {
    this.subscribing ??= (async () => {
      const subscriber = this.connect('subscriber');
      this.subscriber = subscriber;
      subscriber.on('message', (channel: string, payload: string) => {
        if (channel === this.channel) this.receive(payload);
      });
      await subscriber.subscribe(this.channel);
    })().catch((error: unknown) => {
      this.subscribing = null;
      this.subscriber?.disconnect();
      this.subscriber = null;
      throw error;
    });
    return this.subscribing;
  }
}
