import { defineConfig } from 'vitest/config';

// The cluster tier: two replicas of the built server behind nginx, on PostgreSQL and Redis,
// started once (src/cluster/global-setup.ts); files one after another, since they share it.
export default defineConfig({
  test: {
    root: 'api',
    include: ['src/cluster/**/*.cluster.ts'],
    globalSetup: ['src/cluster/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    // 45 sign-ins, each an argon2 hash, take 15 to 20 s on a busy two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
