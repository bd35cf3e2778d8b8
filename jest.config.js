/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testMatch: ['**/*.test.ts'],
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
  testTimeout: 30000,
};
