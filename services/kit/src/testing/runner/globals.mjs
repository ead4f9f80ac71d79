/**
 * `@jest/globals` as the test files import it (loader.mjs points the import here): jest-circus's `describe`
 * and hooks, jest's `expect` and `jest`, which jest-light-runner sets up in each worker, with jest's time
 * limits that the light runner leaves out: a test or hook that has not finished after its timeout (the third
 * argument; 60 s unless given) fails with jest's own message, and the file goes on to its next test.
 */
const { describe, expect, jest } = globalThis;
const circus = {
  test: globalThis.test,
  beforeAll: globalThis.beforeAll,
  afterAll: globalThis.afterAll,
  beforeEach: globalThis.beforeEach,
  afterEach: globalThis.afterEach,
};

const DEFAULT_TIMEOUT_MS = 60_000;

/** `fn` failing with jest's message when it has not settled within `timeoutMs`. */
function limited(fn, timeoutMs = DEFAULT_TIMEOUT_MS, what = 'a test') {
  if (typeof fn !== 'function') throw new TypeError(`expected a function for ${what}, got ${typeof fn}`);
  return (...args) => {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`Exceeded timeout of ${timeoutMs} ms for ${what}.`));
      }, timeoutMs);
    });
    return Promise.race([Promise.resolve().then(() => fn(...args)), expired]).finally(() => clearTimeout(timer));
  };
}

const hook = (register, name) => (fn, timeoutMs) => register(limited(fn, timeoutMs, `a hook (${name})`));

const beforeAll = hook(circus.beforeAll, 'beforeAll');
const afterAll = hook(circus.afterAll, 'afterAll');
const beforeEach = hook(circus.beforeEach, 'beforeEach');
const afterEach = hook(circus.afterEach, 'afterEach');

function timedTest(register) {
  const timed = (name, fn, timeoutMs) => register(name, limited(fn, timeoutMs));
  timed.each = (table) => (name, fn, timeoutMs) => register.each(table)(name, limited(fn, timeoutMs));
  return timed;
}

const test = Object.assign(timedTest(circus.test), {
  only: timedTest(circus.test.only),
  skip: circus.test.skip,
  todo: circus.test.todo,
});

export { afterAll, afterEach, beforeAll, beforeEach, describe, expect, jest, test, test as it };
