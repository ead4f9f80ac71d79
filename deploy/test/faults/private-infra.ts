import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import pg from 'pg';
import { freePort } from '@gpt/kit/testing';

/*
 * Fault tests stop, restart and cut off PostgreSQL and RabbitMQ. The shared servers on the standard
 * ports serve everyone's tests, so each fault test starts servers of its own here: a PostgreSQL
 * cluster and a RabbitMQ node in a temporary folder, on free ports, removed afterwards.
 */

const exec = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
// Debian's /usr/sbin wrappers re-run the command as the rabbitmq user, which drops our environment.
const RABBIT_BIN = existsSync('/usr/lib/rabbitmq/bin') ? '/usr/lib/rabbitmq/bin' : '';
const START_DEADLINE_MS = 120_000;

/** Every server still running when the test process exits is killed, so a crashed run leaves nothing behind. */
const leftovers = new Set<() => void>();
process.once('exit', () => leftovers.forEach((kill) => kill()));

async function until<T>(what: string, deadlineMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${(err as Error).message}`, { cause: err });
      await sleep(200);
    }
  }
}

function killByPidFile(file: string): () => void {
  return () => {
    try {
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (pid > 0) process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
}

/**
 * A PostgreSQL 15 cluster of our own (`initdb` into a temporary folder), listening on a free port of
 * 127.0.0.1 with its socket in that folder. initdb refuses root, so as root it runs as `postgres`.
 */
export class PrivatePostgres {
  private running = false;
  private readonly data: string;
  private readonly options: string;
  private readonly kill: () => void;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.data = path.join(dir, 'data');
    // Durability is not what these tests are about; speed on a loaded machine is.
    this.options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    this.kill = killByPidFile(path.join(this.data, 'postmaster.pid'));
  }

  static async start(): Promise<PrivatePostgres> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fault-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await exec('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      await chown(dir, uid, uid);
    }
    const server = new PrivatePostgres(dir, await freePort());
    const cluster = ['-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'];
    await server.run('initdb', '-D', server.data, ...cluster);
    await server.start();
    return server;
  }

  /** The server's `postgres` database; a service given it as DATABASE_URL creates its own beside it. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the stopped server and waits until it accepts connections. */
  async start(): Promise<void> {
    const log = path.join(this.dir, 'server.log');
    await this.run('pg_ctl', '-D', this.data, '-l', log, '-o', this.options, '-w', 'start');
    this.running = true;
    leftovers.add(this.kill);
  }

  /** `fast`: sessions are terminated and open transactions rolled back, as on an orderly restart. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', '-D', this.data, '-m', mode, '-w', 'stop');
    this.running = false;
    leftovers.delete(this.kill);
  }

  /** Opens a client on one of the server's databases (default: `postgres`). */
  async connect(database = 'postgres'): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${this.port}/${database}` });
    await client.connect();
    return client;
  }

  async remove(): Promise<void> {
    if (this.running) await this.stop('immediate').catch(() => this.kill());
    await rm(this.dir, { recursive: true, force: true });
  }

  private async run(command: string, ...args: string[]): Promise<void> {
    const binary = path.join(PG_BIN, command);
    if (process.getuid?.() === 0) await exec('runuser', ['-u', 'postgres', '--', binary, ...args]);
    else await exec(binary, args);
  }
}

/**
 * A RabbitMQ node of our own: its own node name, AMQP and distribution ports, database, logs and
 * Erlang cookie (HOME) in a temporary folder, no plugins (so no management port to clash over).
 * `stop()` and `start()` take the whole node down and up again with its durable queues and
 * persistent messages, as a broker restart does. (Not `rabbitmqctl stop_app` / `start_app`: with
 * RabbitMQ 3.10 on Erlang 25 here, start_app fails to listen again, eaddrinuse on a free port.)
 */
export class PrivateRabbit {
  private running = false;
  private readonly env: NodeJS.ProcessEnv;
  private readonly kill: () => void;

  private constructor(
    private readonly dir: string,
    readonly node: string,
    readonly port: number,
    distPort: number,
  ) {
    this.env = {
      ...process.env,
      HOME: dir,
      RABBITMQ_NODENAME: node,
      RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
      RABBITMQ_NODE_PORT: String(port),
      RABBITMQ_DIST_PORT: String(distPort),
      // Not /etc/rabbitmq's files: they name the shared node and its port.
      RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
      RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(dir, 'log'),
      RABBITMQ_PID_FILE: path.join(dir, 'rabbit.pid'),
      ERL_EPMD_ADDRESS: '127.0.0.1',
    };
    this.kill = killByPidFile(path.join(dir, 'rabbit.pid'));
  }

  static async start(): Promise<PrivateRabbit> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fault-rabbit-'));
    const [port, distPort] = [await freePort(), await freePort()];
    const node = `fault-${randomBytes(5).toString('hex')}@localhost`;
    await writeFile(path.join(dir, 'rabbitmq-env.conf'), '');
    // A small disk or a busy machine must not raise alarms that block publishers mid-test.
    await writeFile(
      path.join(dir, 'rabbitmq.conf'),
      'disk_free_limit.absolute = 1MB\nvm_memory_high_watermark.relative = 0.9\n',
    );
    await writeFile(path.join(dir, 'enabled_plugins'), '[].');
    const broker = new PrivateRabbit(dir, node, port, distPort);
    await broker.start();
    return broker;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  /** Boots the node (its data survives from the last run) and waits until it takes AMQP connections. */
  async start(): Promise<void> {
    await exec(path.join(RABBIT_BIN, 'rabbitmq-server'), ['-detached'], { env: this.env });
    this.running = true;
    leftovers.add(this.kill);
    await until(`RabbitMQ node ${this.node} did not start`, START_DEADLINE_MS, async () => {
      const connection = await amqp.connect(this.url, { timeout: 2000 });
      await connection.close();
    });
  }

  /** Stops the whole node: every connection drops, the port refuses, nothing is lost from durable queues. */
  async stop(): Promise<void> {
    await this.ctl('stop', path.join(this.dir, 'rabbit.pid'));
    this.running = false;
    leftovers.delete(this.kill);
  }

  /** Kills every client connection while the node stays up. */
  async closeAllConnections(): Promise<void> {
    await this.ctl('close_all_connections', 'fault test');
  }

  /** The queues that have a consumer now, one entry per consumer. */
  async consumedQueues(): Promise<string[]> {
    const out = await this.ctl('-q', 'list_consumers', '--no-table-headers', 'queue_name');
    return out.split('\n').filter(Boolean);
  }

  /** The node's own log, e.g. to look for channel errors it reported. */
  async log(): Promise<string> {
    const logDir = path.join(this.dir, 'log');
    const files = (await readdir(logDir)).filter((name) => name.endsWith('.log'));
    return (await Promise.all(files.map((name) => readFile(path.join(logDir, name), 'utf8')))).join('\n');
  }

  async remove(): Promise<void> {
    if (this.running) await this.stop().catch(() => this.kill());
    await rm(this.dir, { recursive: true, force: true });
  }

  private async ctl(...args: string[]): Promise<string> {
    const { stdout } = await exec(path.join(RABBIT_BIN, 'rabbitmqctl'), ['-n', this.node, ...args], { env: this.env });
    return stdout;
  }
}
