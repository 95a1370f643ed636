import { defineConfig } from 'vitest/config';

// Browser tests: one server (the built app on the embedded database) for the whole run, two
// files at a time. One file at a time kept the machine half idle (about 0.55 of one core over the
// run: the tests wait on playback, timers and the server far more than they compute); each file
// makes its own users and files, and admins are exempt from the device lock, so files running
// together never step on each other's data.
export default defineConfig({
  test: {
    root: 'web',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    maxWorkers: 2,
    // One retry for a browser test that loses a race to a busy 2-core machine; a real fault fails twice.
    retry: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
