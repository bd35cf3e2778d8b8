import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  {
    // The engine runs in browsers and service workers too: no Node module, no Buffer, no process (README).
    files: [
      'mock/core/**/*.ts',
      'mock/adapters/fetch.ts',
      'mock/adapters/msw.ts',
      'spec/compile.ts',
      'spec/resources.ts',
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
              group: [
                'fs',
                'fs/*',
                'path',
                'os',
                'crypto',
                'http',
                'net',
                'stream',
                'child_process',
                'url',
                'util',
                'buffer',
                'events',
              ],
              message: 'the core imports no Node module',
            },
            {
              group: ['**/node/**', '**/spec/load', '**/spec/paths', '**/spec/validation-cache'],
              message: 'imports point one way: node -> adapters -> core -> spec',
            },
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
