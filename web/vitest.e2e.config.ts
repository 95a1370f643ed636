import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './e2e/support/constants.ts';

// Browser tests: two files at a time, each worker on a server of its own (the built app on the
// embedded database, e2e/support/global-setup.ts). One file at a time kept the machine half idle
// (0.53 of one core over 780 s: the tests wait on playback, timers and the server far more than
// they compute); two at a time on one server took 479 s, and three 552 s at 0.79 of a core, the one
// server and its one database connection then being the bottleneck. Each file makes its own users
// and files, and admins are exempt from the device lock, so files never step on each other's data.
export default defineConfig({
  test: {
    root: 'web',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    maxWorkers: E2E_WORKERS,
    // One retry for a browser test that loses a race to a busy 2-core machine; a real fault fails twice.
    retry: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
