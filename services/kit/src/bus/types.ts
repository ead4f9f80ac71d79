import type { Envelope, EventSchemaMap } from '@gpt/contracts';
import type { Transaction } from 'kysely';
import type { z } from 'zod';

export type { Envelope, EventSchemaMap };

export type EventTypeOf<S extends EventSchemaMap> = keyof S & string;

/** The envelope of event `K` with its parsed data. */
export type EventOf<S extends EventSchemaMap, K extends EventTypeOf<S> = EventTypeOf<S>> = Envelope<K, z.output<S[K]>>;

/**
 * One reaction of a service to one event type, in three steps that hand values on:
 * `before(event)` → `handle(trx, event, value)` → `afterCommit(event, result)`. `handle` runs
 * inside a transaction that also records the event in the inbox, so its effect happens once
 * however often the event arrives; throwing rolls both back and the event is retried. An event
 * already in the inbox skips all three.
 */
export interface Consumer<
  DB,
  S extends EventSchemaMap,
  K extends EventTypeOf<S> = EventTypeOf<S>,
  Before = unknown,
  Result = unknown,
> {
  event: K;
  /** Names the consumer in the inbox; defaults to the event type (set it when one service has two consumers of a type). */
  name?: string;
  /**
   * Runs before the handler's transaction, outside it: calls to other services belong here, since
   * a transaction must not wait on the network (in the embedded default every service shares one
   * database session). Its value goes to `handle` (undefined without a `before`). Throwing retries the event.
   */
  before?(event: EventOf<S, K>): Promise<Before>;
  /**
   * Set when `handle` has the same effect however often it runs for an event (its writes are
   * conditional, e.g. «set the flag where it is not set yet»): it then runs on the database itself,
   * each statement committing on its own, with no transaction and no inbox claim — for frequent
   * events that mostly change nothing. `afterCommit` gets what it returned, on every delivery.
   */
  idempotent?: true;
  handle(trx: Transaction<DB>, event: EventOf<S, K>, before: Before): Promise<Result>;
  /** Runs after the handler's transaction committed, with what `handle` returned: e.g. telling a user, dropping what a cache kept. */
  afterCommit?(event: EventOf<S, K>, result: Result): void;
}

/** What the bus reports to `waitFor`. */
export type BusOccurrenceKind = 'published' | 'acked' | 'retried' | 'dead-lettered';

/** One message handed to the consumer; settle it exactly once. */
export interface Delivery {
  /** The raw message body (JSON text of an envelope, unless poisoned). */
  body: string;
  /** 1 on the first delivery, +1 for each retry. */
  attempt: number;
  /** Each resolves false when the message can no longer be settled (its channel is gone; the broker redelivers it). */
  ack(): Promise<boolean>;
  retry(delayMs: number, reason: string): Promise<boolean>;
  deadLetter(reason: string): Promise<boolean>;
}

/** A broker seen from one service: where the relay publishes and where the consumer's deliveries come from. */
export interface Transport {
  /** Routes events of `type` to the service's queue (called before start). */
  bind(type: string): void;
  /** Connects (in the background when remote) and consumes the service's queue if anything is bound to it. */
  start(onDelivery: (delivery: Delivery) => Promise<void>): void;
  /** Resolves once the broker has taken responsibility for the message; rejects when it is unreachable. */
  publish(envelope: Envelope): Promise<void>;
  /** Called after each (re)connection, so waiting outbox rows go out at once. */
  onReady(listener: () => void): void;
  ping(): Promise<void>;
  /** Stops new deliveries; those in flight may still be settled. */
  stopConsuming(): Promise<void>;
  close(): Promise<void>;
}
