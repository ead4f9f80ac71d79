import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, type AccessMode, type IsolationLevel, type Transaction, type TransactionBuilder } from 'kysely';

/** Where the transaction that the current code runs in began (its stack), while it is open. */
const openTransaction = new AsyncLocalStorage<Error>();

/** A call to another service or over the network was made while a database transaction was open. */
export class CallInTransactionError extends Error {
  constructor(what: string, origin: Error) {
    const where = (origin.stack ?? '').split('\n').slice(1).join('\n');
    super(
      `${what} inside a database transaction: a transaction never waits on the network or on another ` +
        `service (call before it begins or after it commits). The transaction began at:\n${where}`,
    );
    this.name = 'CallInTransactionError';
  }
}

/** Throws when the caller runs inside a tracked transaction (development and tests); does nothing otherwise. */
export function assertOutsideTransaction(what: string): void {
  const origin = openTransaction.getStore();
  if (origin) throw new CallInTransactionError(what, origin);
}

/**
 * Runs `work` as a new line of work, not part of any transaction the caller is in: what a broker
 * delivers is not done by the transaction that published it (the in-process broker delivers from
 * the outbox relay's transaction).
 */
export function outsideTransaction<T>(work: () => T): T {
  return openTransaction.exit(work);
}

function trackedBuilder<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  const tracked = {
    setAccessMode: (mode: AccessMode) => trackedBuilder(builder.setAccessMode(mode)),
    setIsolationLevel: (level: IsolationLevel) => trackedBuilder(builder.setIsolationLevel(level)),
    execute<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      const origin = new Error('transaction');
      return builder.execute((trx) => openTransaction.run(origin, () => work(trx)));
    },
  };
  // The builder's own class has private fields, so the tracked one stands in for it by shape.
  return tracked as unknown as TransactionBuilder<DB>;
}

/** Kysely whose transactions are known to the code they run (see `assertOutsideTransaction`). */
export class TrackedKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    return trackedBuilder(super.transaction());
  }
}
