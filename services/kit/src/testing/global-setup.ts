import amqp from 'amqplib';
import { Redis } from 'ioredis';
import pg from 'pg';
import { testInfra } from './infra';

const FIX = `Start them with:
  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
  rabbitmq-server -detached
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
or point TEST_DATABASE_URL, TEST_AMQP_URL and TEST_REDIS_URL at running servers.`;

/** Missing infrastructure is a clear failure with the fix in its message, never a silent skip. */
export default async function globalSetup(): Promise<void> {
  const problems: string[] = [];
  await checkPostgres().catch((err: Error) => problems.push(`PostgreSQL at ${testInfra.databaseUrl}: ${err.message}`));
  await checkRabbit().catch((err: Error) => problems.push(`RabbitMQ at ${testInfra.amqpUrl}: ${err.message}`));
  await checkRedis().catch((err: Error) => problems.push(`Redis at ${testInfra.redisUrl}: ${err.message}`));
  if (problems.length > 0) {
    throw new Error(`Tests need real PostgreSQL, RabbitMQ and Redis.\n${problems.join('\n')}\n${FIX}`);
  }
}

async function checkPostgres() {
  const client = new pg.Client({ connectionString: testInfra.databaseUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  await client.end();
}

async function checkRabbit() {
  const connection = await amqp.connect(testInfra.amqpUrl, { timeout: 3000 });
  await connection.close();
}

async function checkRedis() {
  const redis = new Redis(testInfra.redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}
