import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../../context.js';
import { databaseKinds } from '../../test/database.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { declareJob } from './job-kinds.js';

/** Which app ran each job, by its token: each test sends jobs with tokens of its own. */
const ran = new Map<string, AppDeps[]>();
const attempts = new Map<string, number[]>();
const gaveUp = new Map<string, string[]>();

const onceJob = declareJob<{ token: string; ms?: number }>({
  name: 'test.once',
  async handler({ token, ms }, run) {
    if (ms) await sleep(ms);
    ran.set(token, [...(ran.get(token) ?? []), run.deps]);
  },
});

const exclusiveJob = declareJob<{ token: string }>({
  name: 'test.exclusive',
  exclusive: true,
  async handler({ token }, run) {
    ran.set(token, [...(ran.get(token) ?? []), run.deps]);
  },
});

const failingJob = declareJob<{ token: string }>({
  name: 'test.failing',
  retryLimit: 2,
  async handler({ token }, run) {
    attempts.set(token, [...(attempts.get(token) ?? []), run.retryCount]);
    throw new Error(`attempt ${run.retryCount} failed${run.lastAttempt ? ' (the last)' : ''}`);
  },
  async onGiveUp({ token }, reason) {
    gaveUp.set(token, [...(gaveUp.get(token) ?? []), reason]);
  },
});

const started: TestApp[] = [];
afterAll(async () => {
  for (const t of started) await t.close();
});

describe.each(databaseKinds)('background jobs on %s', (_, kind) => {
  it('runs a job once, and a failing one retryLimit + 1 times before giving it up once', async () => {
    const t = await startTestApp({ embedded: kind.embedded });
    started.push(t);
    const jobs = t.app.deps.jobs;
    await jobs.ready();
    // The kinds the app declares have their queues; the cron kind its schedule (one row, whichever
    // replica wrote it).
    const conn = t.app.orm.em.getConnection();
    const queues: { name: string; policy: string }[] = await conn.execute(
      `select name, policy from pgboss.queue where name in ('chapter-finalize', 'cover-thumbnail', 'upload-sweep') order by name`,
    );
    expect(queues).toEqual([
      { name: 'chapter-finalize', policy: 'exclusive' },
      { name: 'cover-thumbnail', policy: 'standard' },
      { name: 'upload-sweep', policy: 'exclusive' },
    ]);
    const schedules: { name: string; cron: string; timezone: string }[] = await conn.execute(
      `select name, cron, timezone from pgboss.schedule`,
    );
    expect(schedules).toEqual([{ name: 'upload-sweep', cron: '*/15 * * * *', timezone: 'UTC' }]);

    const token = randomUUID();
    const id = await jobs.send(onceJob, { token });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(() => expect(ran.get(token)).toHaveLength(1), { timeout: 20_000, interval: 50 });

    const failing = randomUUID();
    await jobs.send(failingJob, { token: failing });
    await vi.waitFor(() => expect(gaveUp.get(failing)).toHaveLength(1), { timeout: 30_000, interval: 50 });
    expect(attempts.get(failing)).toEqual([0, 1, 2]);
    expect(gaveUp.get(failing)).toEqual(['attempt 2 failed (the last)']);

    // A singleton key keeps a second job out while the first waits.
    const key = randomUUID();
    const first = await jobs.send(exclusiveJob, { token: key }, { singletonKey: key, startAfterSeconds: 1 });
    const second = await jobs.send(exclusiveJob, { token: key }, { singletonKey: key });
    const other = await jobs.send(exclusiveJob, { token: `${key}-other` }, { singletonKey: `${key}-other` });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(other).not.toBeNull();
    await vi.waitFor(() => expect(ran.get(key)).toHaveLength(1), { timeout: 20_000, interval: 50 });

    // Nothing runs again afterwards.
    await sleep(2500);
    expect(ran.get(token)).toHaveLength(1);
    expect(ran.get(key)).toHaveLength(1);
    expect(ran.get(`${key}-other`)).toHaveLength(1);
    expect(attempts.get(failing)).toEqual([0, 1, 2]);
    expect(gaveUp.get(failing)).toHaveLength(1);
  }, 60_000);
});

describe.runIf(process.env.DATABASE_URL)('two app instances on one PostgreSQL', () => {
  it('run 20 jobs sent through both once each, between them', async () => {
    const a = await startTestApp();
    started.push(a);
    const b = await startTestApp({ databaseUrl: a.databaseUrl });
    started.push(b);
    await Promise.all([a.app.deps.jobs.ready(), b.app.deps.jobs.ready()]);
    const tokens = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all(tokens.map((token, i) => (i % 2 ? a : b).app.deps.jobs.send(onceJob, { token, ms: 300 })));
    await vi.waitFor(() => expect(tokens.filter((token) => ran.has(token))).toHaveLength(20), {
      timeout: 30_000,
      interval: 50,
    });
    await sleep(1500);
    for (const token of tokens) expect(ran.get(token), token).toHaveLength(1);
    const byA = tokens.filter((token) => ran.get(token)![0] === a.app.deps).length;
    const byB = tokens.filter((token) => ran.get(token)![0] === b.app.deps).length;
    expect(byA + byB).toBe(20);
    // Each polls for work: with 300 ms jobs neither takes all 20.
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
  }, 60_000);
});
