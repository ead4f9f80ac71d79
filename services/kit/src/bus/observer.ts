import type { BusOccurrenceKind, Envelope } from './types';

const HISTORY_SIZE = 1000;

interface Occurrence {
  kind: BusOccurrenceKind;
  envelope: Envelope;
  claimed: boolean;
}

interface Waiter {
  kind: BusOccurrenceKind;
  predicate: (envelope: Envelope) => boolean;
  resolve: (envelope: Envelope) => void;
}

/**
 * What the bus did, for tests to await instead of polling. Rule: every occurrence is handed to
 * at most one waitFor call. A call first takes the oldest unclaimed matching occurrence among
 * the last 1000 (so starting to wait a little late misses nothing), else the next one to come.
 * Waiting twice for the same predicate therefore sees two occurrences (e.g. a duplicate's acks).
 */
export class Observer {
  private readonly history: Occurrence[] = [];
  private readonly waiters: Waiter[] = [];

  record(kind: BusOccurrenceKind, envelope: Envelope): void {
    const occurrence: Occurrence = { kind, envelope, claimed: false };
    this.history.push(occurrence);
    if (this.history.length > HISTORY_SIZE) this.history.shift();
    const index = this.waiters.findIndex((w) => w.kind === kind && matches(w.predicate, envelope));
    if (index === -1) return;
    const [waiter] = this.waiters.splice(index, 1);
    occurrence.claimed = true;
    waiter?.resolve(envelope);
  }

  waitFor(
    kind: BusOccurrenceKind,
    predicate: (envelope: Envelope) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Envelope> {
    const past = this.history.find((o) => !o.claimed && o.kind === kind && matches(predicate, o.envelope));
    if (past) {
      past.claimed = true;
      return Promise.resolve(past.envelope);
    }
    return new Promise<Envelope>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        const seen = this.history.filter((o) => o.kind === kind).map((o) => `${o.envelope.type}#${o.envelope.id}`);
        reject(
          new Error(`No matching "${kind}" within ${timeoutMs} ms; recent "${kind}": [${seen.slice(-10).join(', ')}]`),
        );
      }, timeoutMs);
      const waiter: Waiter = {
        kind,
        predicate,
        resolve: (envelope) => {
          clearTimeout(timer);
          resolve(envelope);
        },
      };
      this.waiters.push(waiter);
    });
  }
}

// A throwing predicate (e.g. reading a field of a poisoned message) simply does not match.
function matches(predicate: (envelope: Envelope) => boolean, envelope: Envelope): boolean {
  try {
    return predicate(envelope);
  } catch {
    return false;
  }
}
