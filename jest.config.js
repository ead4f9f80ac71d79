/** One jest run for the whole repository: every workspace's `test/` folder, TypeScript through swc as ES modules. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2023',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'es6' },
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.tsx?$': swc },
  // The web app's `@/` alias (web/tsconfig.json `paths`), for unit tests of web modules.
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/web/src/$1' },
  // web/vite.config.ts's build flag: unit tests check API answers against the contracts, as the test build does.
  globals: { __CHECK_API_ANSWERS__: true },
  testMatch: ['<rootDir>/{contracts,gateway,services/*,web,deploy}/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/services/kit/src/testing/global-setup.ts',
  testTimeout: 60000,
  // Three files at a time on the project's 2-core machines: a file waits on a browser, a server or a timer
  // a third of the time (a whole run, one after the other: 998 s with two, 788 s with three, 765 s with four,
  // where one browser test lost a race), and three stacks of six services stay inside PostgreSQL's 100 connections.
  maxWorkers: 3,
};
