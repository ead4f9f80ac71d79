import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { startGateway, type RunningGateway } from '@gpt/gateway';
import {
  createTestDatabase,
  deleteTestBroker,
  dropTestDatabase,
  freePort,
  TEST_SECRETS,
  testInfra,
  uniqueName,
} from '@gpt/kit/testing';
import { eventually } from '../support/async';
import { Traffic } from './fault-stack';
import { ServiceProcess } from './service-process';

/*
 * The gateway in this process in front of the content service in a process of its own (on the
 * shared PostgreSQL, RabbitMQ and Redis), which the test kills outright under load and starts again.
 */
const JWT_SECRET = 'fault-tests-jwt-secret-0123456789abcdef';
/** The gateway gives up on a silent service only after this; a dead one must be answered long before. */
const UPSTREAM_TIMEOUT_MS = 60_000;
const exchange = uniqueName('fault.events');
const keyPrefix = `${uniqueName('fault')}:`;
let databaseUrl: string;
let content: ServiceProcess;
let gateway: RunningGateway;

beforeAll(async () => {
  databaseUrl = await createTestDatabase('content');
  content = await ServiceProcess.start('content', {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CONTENT_DATABASE_URL: databaseUrl,
    AMQP_URL: testInfra.amqpUrl,
    AMQP_EXCHANGE: exchange,
    REDIS_URL: testInfra.redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    ...TEST_SECRETS,
    JWT_SECRET,
  });
  gateway = await startGateway({
    env: {
      PORT: '0',
      LOG_LEVEL: 'silent',
      CONTENT_URL: content.url,
      REDIS_URL: testInfra.redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      ...TEST_SECRETS,
      JWT_SECRET,
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    },
    openapi: buildOpenApiDocument,
  });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await content?.remove();
  await dropTestDatabase(databaseUrl);
  await deleteTestBroker(exchange);
}, 60_000);

describe('a service killed during load', () => {
  test('when the content service is killed under load, then the gateway answers 502/503 JSON at once, and all is well again once the service is back', async () => {
    const traffic = new Traffic(gateway.url, 8, async (call) => {
      await call('GET', '/api/articles');
    });
    await eventually(async () => expect(traffic.since(0).ok).toBeGreaterThanOrEqual(50));

    const killed = traffic.answers.length;
    await content.kill();
    await eventually(async () => expect(traffic.since(killed).failed.length).toBeGreaterThanOrEqual(50));
    await content.restart();
    const back = traffic.answers.length;
    await eventually(async () => expect(traffic.since(back).ok).toBeGreaterThanOrEqual(50));
    const recovered = traffic.answers.length;
    await eventually(async () => expect(traffic.since(recovered).ok).toBeGreaterThanOrEqual(50));
    await traffic.stop();

    expect(traffic.answers.slice(0, killed).filter((answer) => answer.status !== 200)).toEqual([]);
    const failures = traffic.since(0).failed;
    for (const failure of failures) {
      expect([502, 503]).toContain(failure.status);
      expect(failure.body).toEqual({ error: 'Сервис временно недоступен', code: 'upstream_unavailable' });
      // Not left waiting for the upstream timeout: a dead service is told apart at once.
      expect(failure.ms).toBeLessThan(UPSTREAM_TIMEOUT_MS / 6);
    }
    // Refused connections while it is down are 503.
    expect(failures.filter((failure) => failure.status === 503).length).toBeGreaterThan(0);
    expect(traffic.since(recovered).failed).toEqual([]);
  }, 180_000);
});
