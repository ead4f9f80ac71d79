// How the all-in-one embedded process (`npm start` with no server URLs) is started: its Node.js flags
// and environment defaults. `npm start` runs the product in its own process, so package.json's start
// script gives them (deploy/test/embedded-runtime.test.ts keeps the two the same); the benches that
// measure it (bench/embedded.mjs, bench/reads.mjs) start it the same way. Measured in docs/benchmarks.md («The embedded process's memory»): together they
// keep it 100 MB or more smaller after a load, with no loss of throughput the bench could tell.

/** V8's young generation with semi-spaces of at most 2 MB (its default lets them grow to 16 MB). */
export const EMBEDDED_NODE_FLAGS = ['--max-semi-space-size=2'];

/**
 * glibc's malloc with two arenas instead of one per thread (up to 8 per core): PGlite, V8 and
 * libuv's threads otherwise each keep freed memory in an arena of their own. A value set in the
 * environment wins.
 */
export const EMBEDDED_ENV = { MALLOC_ARENA_MAX: '2' };
