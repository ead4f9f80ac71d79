// The Node.js flags of the all-in-one embedded process (`npm start` with no server URLs); the benches
// that measure it (bench/embedded.mjs, bench/reads.mjs) start it with the same ones.

/**
 * V8's young generation with semi-spaces of at most 2 MB (its default lets them grow to 16 MB): a
 * request's garbage dies young either way, and the process keeps 40–90 MB less after a load
 * (measured in docs/benchmarks.md, «Every public read, both modes»).
 */
export const EMBEDDED_NODE_FLAGS = ['--max-semi-space-size=2'];
