import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Env } from '@gpt/kit';
import { createTestDatabase, deleteTestBroker, dropTestDatabase, testInfra, uniqueName } from '@gpt/kit/testing';
import { parse } from 'yaml';
import { eventually } from './support/async';
import { freePort } from '@gpt/kit/testing';
import { configProblems, LOADERS } from './support/configs';

/**
 * The Docker path as far as a machine without a Docker engine can check it: docker-compose.yml read
 * against deploy/build.mjs and each process's configuration, deploy/Dockerfile's final stage laid out
 * as a folder, and the image's start and health commands run in it as a container runs them.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  env_file?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
}
const compose = parse(await readFile(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** The services built from our image (the rest are PostgreSQL, RabbitMQ and Redis). */
const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

/** What only the owner can give, as `npm run env:init` asks for it. */
const OWNER_FILLS = {
  YOOKASSA_SHOP_ID: '123456',
  YOOKASSA_SECRET_KEY: 'live_secret',
  LLM_API_URL: 'https://api.example.com/v1',
  LLM_API_KEY: 'sk-test',
};

/** `npm run env:init` in `dir`: its exit code and output. */
async function initEnv(dir: string, ...args: string[]) {
  const result = await run(process.execPath, [path.join(root, 'deploy/init-env.mjs'), ...args], { cwd: dir }).catch(
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  return { code: 'code' in result ? result.code : 0, output: result.stdout + result.stderr };
}

/** A container's environment: the image's NODE_ENV, then env_file, then the service's `environment`. */
const containerEnv = (service: ComposeService, dotenv: Env): Env => ({
  NODE_ENV: 'production',
  ...dotenv,
  ...service.environment,
});

let workDir: string;
let dotenv: Env;
let initOutput: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'docker-'));
  const { code, output } = await initEnv(workDir);
  expect(code).toBe(0);
  initOutput = output;
  dotenv = parseEnv(await readFile(path.join(workDir, '.env'), 'utf8'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('npm run env:init', () => {
  test('writes fresh secrets, asks for exactly what production still refuses without, and keeps an existing .env', async () => {
    expect(dotenv.JWT_SECRET!.length).toBeGreaterThanOrEqual(32);
    expect(dotenv.BOT_API_KEY!.length).toBeGreaterThanOrEqual(8);
    expect(dotenv.ADMIN_PASSWORD!.length).toBeGreaterThanOrEqual(12);
    expect(dotenv.TELEGRAM_WEBHOOK_SECRET).toMatch(/^[\w-]{16,256}$/);
    expect(initOutput).not.toContain(dotenv.JWT_SECRET);

    // The names listed under «Still to fill» are the ones the services' configurations refuse.
    const section = initOutput.split('Still to fill')[1]!.split('Optional')[0]!;
    const asked = [...section.matchAll(/^ {2}([A-Z_]+(?:, [A-Z_]+)*) —/gm)].flatMap((m) => m[1]!.split(', '));
    const refused = ours.flatMap(([name, service]) =>
      configProblems(name, containerEnv(service, dotenv)).map((problem) => problem.split(':')[0]),
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(asked).toEqual(expect.arrayContaining(refused));

    const again = await initEnv(workDir);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain('npm run env:init -- --force');
    expect(parseEnv(await readFile(path.join(workDir, '.env'), 'utf8'))).toEqual(dotenv);
    const forced = await initEnv(workDir, '--force');
    expect(forced.code).toBe(0);
    expect(parseEnv(await readFile(path.join(workDir, '.env'), 'utf8')).JWT_SECRET).not.toBe(dotenv.JWT_SECRET);
  });
});

describe('docker-compose.yml', () => {
  test('runs every process deploy/build.mjs bundles, each from the one image definition and .env', async () => {
    const { bundles } = (await import(path.join(root, 'deploy/build.mjs'))) as { bundles: [string, string][] };
    const processes = bundles.map(([, outfile]) => outfile).filter((outfile) => outfile.endsWith('/dist/main.js'));
    expect(ours.map(([, service]) => service.command!.at(-1)).sort()).toEqual(processes.sort());
    expect(Object.keys(LOADERS).sort()).toEqual(ours.map(([name]) => name).sort());
    for (const [, service] of ours) {
      expect(service.build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile' });
      expect(service.image).toBe(ours[0]![1].image);
      expect(service.env_file).toEqual(['.env']);
    }
  });

  test('with the owner’s values filled in, every configuration loads in production, calling the others by their names', () => {
    for (const [name, service] of ours) {
      const env = containerEnv(service, { ...dotenv, ...OWNER_FILLS });
      expect([name, configProblems(name, env)]).toEqual([name, []]);
      const config = LOADERS[name]!(env) as Record<string, unknown>;
      for (const [key, value] of Object.entries(config)) {
        // Inside a container the loopback address is the container itself.
        expect([name, key, /127\.0\.0\.1|::1\b/.test(JSON.stringify(value))]).toEqual([name, key, false]);
        // http://<service>:<port> reaches that service on the port it listens on.
        const target = typeof value === 'string' ? /^https?:\/\/([\w-]+):(\d+)/.exec(value) : null;
        if (target && compose.services[target[1]!]?.build !== undefined) {
          expect([name, key, target[2]]).toEqual([name, key, compose.services[target[1]!]!.environment!.PORT]);
        }
      }
    }
  });

  test('the gateway alone is published, on the port it listens on; every service has a health check of the image', () => {
    const published = ours.filter(([, service]) => service.ports);
    expect(published.map(([name]) => name)).toEqual(['gateway']);
    const gateway = compose.services.gateway!;
    expect(gateway.ports).toEqual([`8080:${gateway.environment!.PORT}`]);
    for (const [name, service] of ours) {
      expect([name, service.healthcheck!.test.slice(0, 3)]).toEqual([name, ['CMD', 'node', 'deploy/healthcheck.mjs']]);
      expect([name, service.healthcheck!.test[3]]).toEqual([name, name === 'gateway' ? '/healthz' : '/readyz']);
    }
  });
});

/** deploy/Dockerfile's instructions by stage. */
async function dockerfile() {
  const text = (await readFile(path.join(root, 'deploy/Dockerfile'), 'utf8')).replace(/\\\n/g, ' ');
  const stages: string[][] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('FROM ')) stages.push([]);
    stages.at(-1)!.push(line);
  }
  return stages;
}
const execForm = (instruction: string) => JSON.parse(instruction.slice(instruction.indexOf('['))) as string[];

describe('deploy/Dockerfile', () => {
  let image: string;

  beforeAll(async () => {
    // What `npm run build` leaves (the web app is built when missing, as `npm start` does), laid out
    // as the final stage copies it. node_modules is linked, not copied: the image's is the pruned one.
    const { buildServers, buildWeb } = (await import(path.join(root, 'deploy/build.mjs'))) as {
      buildServers: () => Promise<void>;
      buildWeb: () => void;
    };
    await buildServers();
    if (!existsSync(path.join(root, 'web/dist/index.html'))) buildWeb();
    image = path.join(workDir, 'app');
    const final = (await dockerfile()).at(-1)!;
    for (const line of final.filter((l) => l.startsWith('COPY --from=build '))) {
      const [source, destination] = line.split(/\s+/).slice(2) as [string, string];
      const from = path.join(root, path.relative('/app', source));
      const to = path.join(
        image,
        destination.endsWith('/') ? path.join(destination, path.basename(source)) : destination,
      );
      await mkdir(path.dirname(to), { recursive: true });
      if (path.basename(source) === 'node_modules') await symlink(from, to);
      else await cp(from, to, { recursive: true });
    }
  }, 120_000);

  test('installs with every workspace’s package.json; keeps secrets, data, tests, bench and .ci out of the context', async () => {
    const [build] = await dockerfile();
    const install = build!.findIndex((line) => line.startsWith('RUN npm install'));
    const copied = build!.slice(0, install).filter((line) => line.startsWith('COPY '));
    const { workspaces } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    for (const workspace of workspaces) expect(copied).toContain(`COPY ${workspace}/package.json ${workspace}/`);

    const ignored = (await readFile(path.join(root, '.dockerignore'), 'utf8')).split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.env', 'data', '**/test', 'bench', '.ci', '**/node_modules']));
  });

  test('the final stage holds the bundles, the web app and the health check; no source, no test', async () => {
    const final = (await dockerfile()).at(-1)!;
    const commands = [
      execForm(final.find((line) => line.startsWith('CMD '))!),
      execForm(final.find((line) => line.startsWith('HEALTHCHECK '))!),
      ...ours.map(([, service]) => service.command!),
      ...ours.map(([, service]) => service.healthcheck!.test.slice(1)),
    ];
    for (const command of commands) {
      expect(command[0]).toBe('node');
      expect([
        command,
        existsSync(
          path.join(
            image,
            command.find((arg) => /\.m?js$/.test(arg))!,
          ),
        ),
      ]).toEqual([command, true]);
    }
    expect(existsSync(path.join(image, 'web/dist/index.html'))).toBe(true);
    for (const absent of ['services/kit', 'services/bot/src', 'gateway/src', 'gateway/test', 'contracts', 'bench']) {
      expect([absent, existsSync(path.join(image, absent))]).toEqual([absent, false]);
    }
  });

  test('the bot (its compose command) and the gateway (the image’s CMD) start in production and pass the health checks', async () => {
    const final = (await dockerfile()).at(-1)!;
    const database = await createTestDatabase('docker_bot');
    const exchange = uniqueName('docker');
    const [botPort, gatewayPort] = await Promise.all([freePort(), freePort()]);
    const closed = 'http://127.0.0.1:9';
    /** Only the addresses differ from the container's: the local servers and free ports. */
    const local = {
      DATABASE_URL: testInfra.databaseUrl,
      BOT_DATABASE_URL: database,
      AMQP_URL: testInfra.amqpUrl,
      AMQP_EXCHANGE: exchange,
      REDIS_URL: testInfra.redisUrl,
      REDIS_KEY_PREFIX: `${exchange}:`,
      AUTH_URL: closed,
      CONTENT_URL: closed,
      BILLING_URL: closed,
      CHAT_HISTORY_URL: closed,
      METRICS_URL: closed,
      BOT_URL: `http://127.0.0.1:${botPort}`,
      LOG_LEVEL: 'warn',
    };
    const envOf = (name: string, port: number) => ({
      PATH: process.env.PATH,
      ...containerEnv(compose.services[name]!, { ...dotenv, ...OWNER_FILLS }),
      ...local,
      PORT: String(port),
    });
    const children: ChildProcess[] = [];
    const output: string[] = [];
    const start = ([, ...args]: string[], env: Env) => {
      const child = spawn(process.execPath, args, { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      children.push(child);
    };
    /** The health check's exit code, run as Docker runs it: in the container, with its environment. */
    const healthCheck = async ([, ...args]: string[], env: Env) =>
      await run(process.execPath, args, { cwd: image, env })
        .then(() => 0)
        .catch((err: { code: number }) => err.code);

    const botEnv = envOf('bot', botPort);
    const gatewayEnv = envOf('gateway', gatewayPort);
    try {
      start(compose.services.bot!.command!, botEnv);
      start(execForm(final.find((line) => line.startsWith('CMD '))!), gatewayEnv);
      await eventually(async () => {
        expect(children.map((child) => child.exitCode)).toEqual([null, null]);
        expect((await fetch(`http://127.0.0.1:${gatewayPort}/healthz`)).status).toBe(200);
        expect(await healthCheck(compose.services.bot!.healthcheck!.test.slice(1), botEnv)).toBe(0);
      }, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${output.join('')}`);
      });
      expect(await healthCheck(execForm(final.find((line) => line.startsWith('HEALTHCHECK '))!), gatewayEnv)).toBe(0);
      // The gateway reaches the bot at BOT_URL.
      const info = await fetch(`http://127.0.0.1:${gatewayPort}/api/telegram/info`);
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ username: null, url: null });
    } finally {
      await Promise.all(
        children.map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null) return resolve(child.exitCode);
              child.once('exit', resolve);
              child.kill('SIGTERM');
            }),
        ),
      );
      await dropTestDatabase(database);
      await deleteTestBroker(exchange);
    }
    // Nothing answers any more: the health check says so.
    expect(await healthCheck(compose.services.bot!.healthcheck!.test.slice(1), botEnv)).toBe(1);
  }, 120_000);
});
