import { defineConfig } from 'vitest/config';

// Browser tests: one server (the built app on the embedded database) for the whole run,
// files one after another so the two cores go to the server and Chromium.
export default defineConfig({
  test: {
    root: 'web',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    // One retry for a browser test that loses a race to a busy 2-core machine; a real fault fails twice.
    retry: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
