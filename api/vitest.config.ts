import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // type-graphql is CommonJS; without this alias graphql would load twice ("another realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    root: 'api',
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time: a third filled the idle minutes at the run's end (375 s against 401 s
    // beside the cluster tier) but made the encoding tests twice as slow, one past its timeout.
    maxWorkers: 2,
    // Each worker loads the app's modules once for all the files it runs, not once per file: the
    // import was 4.5 s of every file (88 files). Files share no state through modules: each starts
    // its own app (createApp) on its own database, and none mocks a module (vi.mock would leak).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    setupFiles: ['src/test/setup.ts'],
    // On PostgreSQL: the migrations run once, into a template every test database is copied from.
    globalSetup: ['src/test/global-setup.ts'],
    // Worker threads started from the TypeScript sources load their .ts program (see the hooks).
    execArgv: ['--import', fileURLToPath(new URL('./src/test/worker-ts-register.mjs', import.meta.url))],
  },
});
