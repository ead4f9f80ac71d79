/**
 * One jest run for the whole repository: every workspace's `test/` folder. jest-light-runner runs each file
 * in plain Node, in worker processes that keep the modules they loaded: the product's code is compiled and
 * evaluated once per worker rather than once per file (`npm run test:jest` loads the TypeScript hooks,
 * services/kit/src/testing/runner/loader.mjs; docs/architecture.md, Tests).
 */
export default {
  runner: 'jest-light-runner',
  testMatch: ['<rootDir>/{contracts,gateway,services/*,web,deploy}/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/services/kit/src/testing/global-setup.ts',
  // Three files at a time on the project's 2-core machines: a file waits on a browser, a server or a timer
  // part of the time (jest's own runner, one run each: 998 s with two, 788 s with three, 765 s with four; this
  // runner: 404 s with three, 405 s with four and 15 % more CPU), and three stacks of six services stay
  // inside PostgreSQL's 100 connections.
  maxWorkers: 3,
};
