import { createLogger, type Env } from '@gpt/kit';
import { createTestDatabase, deleteTestBroker, dropTestDatabase, testInfra, uniqueName } from '@gpt/kit/testing';
import { startStack, type Stack } from './stack';

const SERVICES = ['auth', 'content', 'billing', 'chat-history', 'metrics'];

export interface TestStack extends Stack {
  /** The gateway's base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The admin created at start. */
  admin: { email: string; password: string };
}

/**
 * The whole product for a test: every service on a fresh database of the test PostgreSQL, one
 * RabbitMQ exchange of its own, the test Redis, and the gateway serving the built web app.
 */
export async function startTestStack(env: Env = {}): Promise<TestStack> {
  const admin = { email: `${uniqueName('admin')}@example.com`, password: 'admin12345' };
  const exchange = uniqueName('test.events');
  const databases = await Promise.all(SERVICES.map((name) => createTestDatabase(name.replace('-', '_'))));
  const stack = await startStack(
    {
      LOG_LEVEL: 'silent',
      // A free port for the gateway too, so test files with stacks of their own run side by side.
      PORT: '0',
      AMQP_URL: testInfra.amqpUrl,
      AMQP_EXCHANGE: exchange,
      REDIS_URL: testInfra.redisUrl,
      REDIS_KEY_PREFIX: `${uniqueName('stack')}:`,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...Object.fromEntries(
        SERVICES.map((name, i) => [`${name.toUpperCase().replace('-', '_')}_DATABASE_URL`, databases[i]]),
      ),
      ...env,
    },
    createLogger({ name: 'test-stack', level: 'silent' }),
  );
  return {
    ...stack,
    url: stack.gateway.url,
    admin,
    async close() {
      await stack.close();
      await Promise.all(databases.map(dropTestDatabase));
      await deleteTestBroker(exchange);
    },
  };
}
