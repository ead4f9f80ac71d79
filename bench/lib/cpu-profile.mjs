// A V8 CPU profile of one measured run, loaded into a product process with `node --import`
// (bench/reads.mjs --cpu-prof DIR). The first SIGUSR2 starts the profiler, the next stops it and
// writes `<DIR>/<CPU_PROFILE_NAME>.<n>.cpuprofile` (n counts the runs from 1), and so on; the bench
// sends them around each measured run, so start-up and warm-up stay out of the profile.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
const name = process.env.CPU_PROFILE_NAME ?? String(process.pid);
if (!dir) throw new Error('cpu-profile.mjs needs CPU_PROFILE_DIR');

const session = new Session();
session.connect();
await session.post('Profiler.enable');
// 200 µs between samples (V8's default is 1 ms): a 10 µs frame still shows in an 8 s run.
await session.post('Profiler.setSamplingInterval', { interval: 200 });
let runs = 0;
let profiling = false;

process.on('SIGUSR2', () => {
  profiling = !profiling;
  if (profiling) {
    void session.post('Profiler.start');
    return;
  }
  runs += 1;
  const file = path.join(dir, `${name}.${runs}.cpuprofile`);
  void session.post('Profiler.stop').then(({ profile }) => writeFileSync(file, JSON.stringify(profile)));
});
