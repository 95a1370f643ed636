import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // type-graphql is CommonJS; without this alias graphql would load twice ("another realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    root: 'api',
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    setupFiles: ['src/test/setup.ts'],
    // Worker threads started from the TypeScript sources load their .ts program (see the hooks).
    execArgv: ['--import', fileURLToPath(new URL('./src/test/worker-ts-register.mjs', import.meta.url))],
  },
});
