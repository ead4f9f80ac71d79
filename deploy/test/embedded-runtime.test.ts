import { readFileSync } from 'node:fs';
import { expect, test } from '@jest/globals';

/** `npm start` runs the embedded product with the flags and environment the benches measured it with. */
test('package.json’s start script gives the embedded process its Node.js flags and malloc setting', async () => {
  const runtime = '../embedded-runtime.mjs';
  const { EMBEDDED_ENV, EMBEDDED_NODE_FLAGS } = (await import(runtime)) as {
    EMBEDDED_ENV: Record<string, string>;
    EMBEDDED_NODE_FLAGS: string[];
  };
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  for (const flag of EMBEDDED_NODE_FLAGS) expect(scripts.start).toContain(` ${flag} `);
  for (const [name, value] of Object.entries(EMBEDDED_ENV))
    expect(scripts.start).toContain(`${name}=\${${name}:-${value}}`);
});
