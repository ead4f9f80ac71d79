import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CpuSampler } from './cpu-sampler';

/** What the dashboard shows about the machine the service runs on, and how long the service has run (bytes and seconds). */
export interface HostFigures {
  memoryUsage: number;
  totalMemory: number;
  cpuUsage: number;
  loadAverage: [number, number, number];
  uptimeSec: number;
  diskUsed: number;
  diskTotal: number;
}

/** statfs needs an existing path: the data folder, or the nearest folder above it that exists. */
function existingAncestor(target: string): string {
  let current = path.resolve(target);
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}

export async function readHostFigures(cpu: CpuSampler, diskPath: string): Promise<HostFigures> {
  const disk = await statfs(existingAncestor(diskPath));
  const totalMemory = os.totalmem();
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return {
    // freemem() is the kernel's MemAvailable: what programs could still get, caches included.
    memoryUsage: totalMemory - os.freemem(),
    totalMemory,
    cpuUsage: cpu.percent(),
    loadAverage: [one, five, fifteen],
    // «Время работы» is the service's, since its process started: the machine's boot says nothing of it.
    uptimeSec: Math.floor(process.uptime()),
    // As df counts: used = all blocks minus the free ones.
    diskUsed: (disk.blocks - disk.bfree) * disk.bsize,
    diskTotal: disk.blocks * disk.bsize,
  };
}
