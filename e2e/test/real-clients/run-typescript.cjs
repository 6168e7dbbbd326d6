// Runs a TypeScript file as its own process, as jest runs the tests:
// `node --conditions=@cloud/source -r ./run-typescript.cjs file.ts` (swc, no type-check; the
// workspace packages resolve to their src/ by the condition), so the platform needs no build.
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
