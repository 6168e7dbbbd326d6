// One lint configuration for every workspace: typescript-eslint's recommended rules plus the
// type-aware promise rules that catch unhandled rejections in Express handlers and bus consumers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// The layers of a service (accounts, nodes, staking): the wiring (app, service, main, migrate,
// index, testing) → entry-points → domain → data-access (the records and all that talks to the
// database), and drivers → domain (they implement its port, domain/node-driver.ts) and the
// records. Each zone names what its files may not import.
const service = (folder) => `./services/*/src/${folder}/**`;
const wiring = './services/*/src/{app,index,main,migrate,service,testing}.ts';
const layerZones = [
  {
    target: service('domain'),
    from: [service('entry-points'), service('drivers'), wiring],
    message: 'entry points, drivers and the wiring import the domain, never the reverse.',
  },
  {
    target: service('data-access'),
    from: [service('entry-points'), service('domain'), service('drivers'), wiring],
    message: 'data-access is the bottom layer (the records and all that talks to the database): it imports no other layer.',
  },
  {
    target: service('drivers'),
    from: [service('entry-points'), './services/*/src/data-access/*.repository.ts', wiring],
    message: "a driver implements the domain's port (domain/node-driver.ts) and may use the records, never a repository, an entry point or the wiring.",
  },
  { target: service('entry-points'), from: [service('drivers'), wiring], message: 'entry points call the domain; the wiring imports them, not the reverse.' },
  {
    target: service('entry-points'),
    from: [service('data-access')],
    message: 'entry points call the domain, which alone reaches data-access (the records and all that talks to the database).',
  },
  { target: './packages/*/src/**', from: ['./services/**', './apps/**'], message: 'shared packages are imported by services and apps, never the reverse.' },
  { target: './services/*/src/**', from: ['./apps/**'], message: 'apps import services, never the reverse.' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      // The two programs of the repository (tsconfig.json: every workspace's Node.js code; the
      // console's browser code), each built once for the whole lint.
      parserOptions: { project: ['./tsconfig.json', './apps/console/tsconfig.web.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // Imports that point up a layer, and import cycles (type-only imports aside, which vanish at
    // run time), in the code that ships; no-cycle walks each file's imports, so tests stay out.
    files: ['services/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      // Workspace packages resolve to their sources (the @cloud/source condition), as in tsconfig.json.
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.json'], conditionNames: ['@cloud/source', 'import', 'require', 'default'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
    // CommonJS files (bins, jest configs and reporters) load what they need with require().
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Scripts run by node (scripts/, the tooling's own configs).
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
