// Lets a test run TypeScript (a service's entry point, a platform) as its own process, as jest
// runs the tests: `node --conditions=@cloud/source -r @cloud/jest-preset/run-typescript.cjs
// src/main.ts` (swc, no type-check; the workspace packages resolve to their src/ by the
// condition), so nothing needs a build. node:cluster workers inherit both.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs', ignoreDynamic: true },
  });
  module._compile(code, filename);
};
