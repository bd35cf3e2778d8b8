/**
 * Two projects: every test on the node:http adapter, and the behaviour suites (test/behaviour) once more on
 * the fetch adapter: the same tests, two adapters.
 * @type {import('jest').Config}
 */
const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    // @scalar/* (the OpenAPI upgrader) ships ES modules only: Node requires them natively, jest needs CommonJS.
    '/node_modules/@scalar/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!@scalar/)'],
};

const FETCH_SUITES = ['routing-auth', 'validation', 'rate-limit', 'resources'];

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
