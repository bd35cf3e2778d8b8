// Packages that ship ES modules only (or resolve to them under jest's conditions): Node requires them natively,
// jest needs CommonJS. @scalar/* is the OpenAPI upgrader; the others come with msw/node (examples/msw-node.test.ts),
// and msw3 (MSW 3, ESM-only, with the packages it nests in msw3/node_modules) and @msw/url with test/msw-entry.test.ts.
const ESM_ONLY = ['@scalar', 'rettime', 'until-async', '@open-draft/deferred-promise', 'msw3', '@msw/url'];
const ESM_GROUP = `(${ESM_ONLY.join('|')})`;

/**
 * Two projects: every test on the node:http adapter, and the behaviour suites (test/behaviour) once more on
 * the fetch adapter: the same tests, two adapters.
 * @type {import('jest').Config}
 */
const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/test-output/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    [`/node_modules/${ESM_GROUP}/.+\\.m?js$`]: [
      '<rootDir>/test/support/esm-transform.js',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } },
    ],
  },
  // Everything under node_modules is used as it is, except those packages and what msw3 nests under its own folder.
  transformIgnorePatterns: [`^(?!.*/node_modules/msw3/).*/node_modules/(?!${ESM_GROUP}/)`],
  // The package's own entry points, as the examples import them, from the sources (package.json `exports` maps
  // them to dist/ for users; test/package-exports.test.ts checks that map on the build).
  moduleNameMapper: {
    '^petstore-contract-tools$': '<rootDir>/index.ts',
    '^petstore-contract-tools/fetch$': '<rootDir>/mock/adapters/fetch.ts',
    '^petstore-contract-tools/msw$': '<rootDir>/mock/adapters/msw.ts',
  },
};

const FETCH_SUITES = [
  'routing-auth',
  'validation',
  'rate-limit',
  'resources',
  'schema-views',
  'wrapped-bodies',
  'prefer',
  'chaos',
  'callbacks',
  'webhooks',
  'openapi-32',
];

module.exports = {
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'node-http', testMatch: ['**/*.test.ts'] },
    {
      ...common,
      displayName: 'fetch',
      testMatch: FETCH_SUITES.map((name) => `<rootDir>/test/behaviour/${name}.test.ts`),
      setupFiles: ['<rootDir>/test/support/adapter-fetch.js'],
    },
  ],
};
