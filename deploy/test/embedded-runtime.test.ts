import { readFileSync } from 'node:fs';
import { expect, test } from '@jest/globals';
import { EMBEDDED_ENV, EMBEDDED_NODE_FLAGS } from '../embedded-runtime.mjs';

/** `npm start` runs the embedded product with the flags and environment the benches measured it with. */
test('package.json’s start script gives the embedded process its Node.js flags and malloc setting', () => {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  for (const flag of EMBEDDED_NODE_FLAGS) expect(scripts.start).toContain(` ${flag} `);
  for (const [name, value] of Object.entries(EMBEDDED_ENV))
    expect(scripts.start).toContain(`${name}=\${${name}:-${value}}`);
});
