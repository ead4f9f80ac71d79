import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { eventually } from '../support/async';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A service as production runs it: its own Node process, started from a bundle of its main.ts, that
 * a test can kill outright (SIGKILL: no graceful shutdown, sockets reset) and start again on the
 * same port. The bundle is built for the test (not the shared dist/), so it is the current source.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';

  private constructor(
    private readonly bundle: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly url: string,
  ) {}

  /** Builds services/<name>/src/main.ts and starts it with `env` (which must set PORT). */
  static async start(name: string, env: Record<string, string>): Promise<ServiceProcess> {
    // Under node_modules, so the bundle's npm imports resolve as they do from dist/.
    const cache = path.join(root, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    const dir = await mkdtemp(path.join(cache, `fault-${name}-`));
    const bundle = path.join(dir, 'main.js');
    await esbuild.build({
      entryPoints: [path.join(root, 'services', name, 'src', 'main.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      logLevel: 'warning',
      // As deploy/build.mjs: our workspaces are bundled, every other package stays external.
      plugins: [
        {
          name: 'external-packages',
          setup(build) {
            build.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@gpt/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    const service = new ServiceProcess(bundle, { ...process.env, ...env }, `http://127.0.0.1:${env.PORT}`);
    await service.restart();
    return service;
  }

  /** What the process has written so far (its log lines), across restarts. */
  get log(): string {
    return this.output;
  }

  /** Starts the process (again) and waits until it answers /healthz. */
  async restart(): Promise<void> {
    const child = spawn(process.execPath, [this.bundle], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${this.output}`);
      const res = await fetch(`${this.url}/healthz`);
      if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
    }, 60_000);
  }

  /** Kills the process (SIGKILL unless told otherwise) and waits until it is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** Stops the process and removes its bundle. */
  async remove(): Promise<void> {
    await this.kill('SIGTERM');
    await rm(path.dirname(this.bundle), { recursive: true, force: true });
  }
}
