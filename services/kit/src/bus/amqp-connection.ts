import amqp, { type ChannelModel } from 'amqplib';
import type { Logger } from '../logger';

export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  /** Wait before reconnect attempt n (the last value repeats). */
  reconnectDelaysMs: number[];
  /** Declares topology and opens channels on a fresh connection; throwing drops it and retries. */
  setup(model: ChannelModel): Promise<void>;
  /** The connection in use was lost. */
  onLost(): void;
}

/**
 * Keeps one AMQP connection alive: connects in the background, and after any loss (broker
 * restart, killed socket, failed setup) reconnects with back-off and runs `setup` again.
 */
export class AmqpConnection {
  private current: ChannelModel | null = null;
  private connecting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: AmqpConnectionOptions) {}

  start(): void {
    this.closed = false;
    this.connecting ??= this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.connecting;
    const model = this.current;
    this.current = null;
    await model?.close().catch(() => {});
  }

  private async connect(): Promise<void> {
    const { logger } = this.options;
    let model: ChannelModel | null = null;
    try {
      model = await amqp.connect(withHeartbeat(this.options.url), { timeout: 5000 });
      const opened = model;
      opened.on('error', (err: Error) => logger.warn({ err }, 'broker connection error'));
      opened.on('close', () => this.lost(opened));
      if (this.closed) {
        await opened.close().catch(() => {});
        return;
      }
      this.current = opened;
      await this.options.setup(opened);
      if (this.failures > 0) logger.info('reconnected to the broker');
      this.failures = 0;
    } catch (err) {
      // First failure of an outage is a warning; the retries after it are noise.
      if (this.failures === 0) logger.warn({ err }, 'broker unreachable; retrying');
      else logger.debug({ err }, 'broker still unreachable');
      if (model && this.current === model) {
        this.current = null;
        await model.close().catch(() => {});
      }
      this.scheduleReconnect();
    } finally {
      this.connecting = null;
    }
  }

  private lost(model: ChannelModel): void {
    if (this.current !== model) return;
    this.current = null;
    this.options.onLost();
    if (!this.closed) {
      this.options.logger.warn('broker connection lost; reconnecting');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delays = this.options.reconnectDelaysMs;
    const delay = delays[Math.min(this.failures, delays.length - 1)] ?? 1000;
    this.failures += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connecting ??= this.connect();
    }, delay);
  }
}

// Heartbeats notice a silently dead broker in seconds rather than at the next TCP timeout.
function withHeartbeat(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', '10');
  return parsed.toString();
}
