import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import { CallInTransactionError, createLogger, openDatabase, serviceFetch, type Database } from '../src';
import { createTestDatabase, dropTestDatabase } from '../src/testing';

/** A transaction never waits on another service: in development and tests such a call fails at once, naming the transaction. */
const logger = createLogger({ name: 'transaction-guard-test', level: 'silent' });
let url: string;
let server: Server;
let tracked: Database<unknown>;
let untracked: Database<unknown>;
let requests = 0;
let databaseUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests += 1;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/bot/balance`;
  databaseUrl = await createTestDatabase('kit_trx_guard');
  tracked = await openDatabase({ service: 'guard', url: databaseUrl, migrations: {}, logger, trackTransactions: true });
  untracked = await openDatabase({ service: 'guard', url: databaseUrl, migrations: {}, logger });
});

afterAll(async () => {
  await Promise.all([tracked.close(), untracked.close()]);
  await dropTestDatabase(databaseUrl);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a transaction here, at a line the error must point back to, and calls the service inside it. */
const callInsideTransaction = (database: Database<unknown>) =>
  database.db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    return serviceFetch(url, { method: 'POST' });
  });

describe('a call to another service inside a database transaction', () => {
  test('when transactions are tracked (development, tests), then it throws with the call and where the transaction began', async () => {
    const before = requests;
    const error = await callInsideTransaction(tracked).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(CallInTransactionError);
    expect((error as Error).message).toContain(`POST ${url} inside a database transaction`);
    expect((error as Error).message).toMatch(/callInsideTransaction .*transaction-guard\.test\.ts/);
    expect(requests).toBe(before);
  });

  test('when the call is made before the transaction begins or after it commits, then it goes through', async () => {
    expect((await serviceFetch(url)).status).toBe(200);
    await tracked.db.transaction().execute((trx) => sql`select 1`.execute(trx));
    expect((await serviceFetch(url)).status).toBe(200);
  });

  test('when work started inside a transaction outlives it, then only what ran inside was refused', async () => {
    let later: Promise<Response> | undefined;
    await tracked.db.transaction().execute(async () => {
      later = Promise.resolve().then(() => serviceFetch(url));
      await expect(later).rejects.toBeInstanceOf(CallInTransactionError);
    });
    expect((await serviceFetch(url)).status).toBe(200);
  });

  test('when transactions are not tracked (production), then nothing is checked', async () => {
    expect((await callInsideTransaction(untracked)).status).toBe(200);
  });
});
