import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // type-graphql is CommonJS; without this alias graphql would load twice ("another realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    root: 'api',
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    // Three files at a time on two cores: many wait on timers, encodes and sockets, so two left a
    // core idle for much of the run's second half (375 s with three beside the cluster tier, 401 s with two).
    maxWorkers: 3,
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
