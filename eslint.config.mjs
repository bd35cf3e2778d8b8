import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The house: `mock/`, `conformance/` and `proxy/` side by side on `spec/`, none importing another, `spec/` none
 * of them (docs/contributing.md). Only the bins (bin/commands.js) know all three.
 */
const WINGS = ['mock', 'conformance', 'proxy'];
const fenceOf = (folder) => ({
  group: (folder === 'spec' ? WINGS : WINGS.filter((w) => w !== folder)).map((w) => `**/${w}/**`),
  message: `${folder}/ imports only spec/: mock/, conformance/ and proxy/ stand side by side on spec/`,
});
const TEST_FILES = ['**/*.test.ts', 'conformance/test/**', 'test/**'];

/**
 * The floors of `conformance/`, bottom first (conformance/floors.json, docs/contributing.md "Layering"): a folder
 * imports only the folders before it and the root's floor files (`types.ts`, `rules.ts`, `catalogue.ts`); the
 * other root files (`run.ts`, `cli.ts`, ...) and `parity/` are the top. test/import-cycles.test.ts holds the same
 * order over dynamic imports too.
 */
const FLOORS = JSON.parse(
  readFileSync(fileURLToPath(new globalThis.URL('./conformance/floors.json', import.meta.url)), 'utf8'),
);
const CONFORMANCE_FLOORS = FLOORS.floors;
const ROOT_FLOOR = FLOORS.rootFloor;
const floorsOf = (folder) => {
  const above = [...CONFORMANCE_FLOORS.slice(CONFORMANCE_FLOORS.indexOf(folder) + 1), ...FLOORS.top];
  const message = `conformance/${folder}/ imports only the floors under it: ${CONFORMANCE_FLOORS.join(' < ')} (docs/contributing.md)`;
  return [
    ...(above.length ? [{ regex: `^\\.\\./(${above.join('|')})(/|$)`, message }] : []),
    { regex: `^\\.\\./(?!(${ROOT_FLOOR.join('|')})$)[^/.]+$`, message },
  ];
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'spec/generated/**',
      'coverage/**',
      'bench/results/**',
      'examples/msw-browser/app.js',
      'examples/msw-browser/mockServiceWorker.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...['spec', ...WINGS].map((folder) => ({
    files: [`${folder}/**/*.ts`],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [fenceOf(folder)] }] },
  })),
  // A folder of conformance/ is also in its wing's fence above; this rule replaces that one, so it repeats it.
  ...CONFORMANCE_FLOORS.map((folder) => ({
    files: [`conformance/${folder}/**/*.ts`],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': ['error', { patterns: [fenceOf('conformance'), ...floorsOf(folder)] }],
    },
  })),
  {
    files: ROOT_FLOOR.map((f) => `conformance/${f}.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            fenceOf('conformance'),
            {
              regex: `^\\./(?!(${ROOT_FLOOR.join('|')})$)`,
              message: 'the floor files of conformance/ import only each other (docs/contributing.md)',
            },
          ],
        },
      ],
    },
  },
  {
    // The engine runs in browsers and service workers too: no Node module, no Buffer, no process (README).
    files: [
      'mock/core/**/*.ts',
      'mock/adapters/fetch.ts',
      'mock/adapters/msw.ts',
      'spec/compile.ts',
      'spec/resources.ts',
      'spec/http/match.ts',
      'spec/http/path-template.ts',
      'spec/http/request-rules.ts',
      'spec/json.ts',
      'spec/error-shape.ts',
      'spec/error-codes.ts',
      'spec/error-response.ts',
      'spec/sample.ts',
      'spec/status-text.ts',
      'spec/redact.ts',
      'spec/schema-shape.ts',
      'spec/deref.ts',
      'spec/base-path.ts',
      'examples/msw-browser/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'the core imports no Node module' },
            {
              // Bare names only: `spec/http/match` is ours, `http` is Node's.
              regex: '^(fs|path|os|crypto|http|net|stream|child_process|url|util|buffer|events)(/.*)?$',
              message: 'the core imports no Node module',
            },
            {
              group: ['**/node/**', '**/spec/load', '**/spec/paths', '**/spec/validation-cache'],
              message: 'imports point one way: node -> adapters -> core -> spec',
            },
            // A file here is also in its wing's fence above; this rule replaces that one, so it repeats it.
            { ...fenceOf('spec'), message: 'the core imports only spec/ (docs/contributing.md)' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'the core uses Uint8Array' },
        { name: 'process', message: 'the core reads no environment' },
        { name: '__dirname', message: 'the core reads no file' },
        { name: 'require', message: 'the core loads modules by import only' },
      ],
    },
  },
);
