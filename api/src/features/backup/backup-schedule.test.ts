import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import tar from 'tar-stream';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile } from '../../test/library-fixtures.js';
import { createLogger } from '../../logger.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { CoverStorage } from '../files/cover.entity.js';
import type { Ctx } from '../../context.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { User } from '../users/user.entity.js';
import { backupStatus, streamBackup } from './backup-admin.service.js';
import { latestBackupStatus } from './backup-audit.js';
import {
  nextSlot,
  previousSlot,
  startBackupSchedule,
  type BackupClock,
  type BackupSchedule,
} from './backup-schedule.js';
import { backupEnv, backupSettings } from './backup-settings.js';

const work = mkdtempSync(path.join(tmpdir(), 'pal-backup-schedule-'));
let t: Awaited<ReturnType<typeof startTestApp>>;
let admin: Session;
/** A second instance on the same database (PostgreSQL); the embedded one is one process's, so it is `t` again. */
let other: TestApp | undefined;
const schedules: BackupSchedule[] = [];
const logger = createLogger('silent');

/** A clock standing at `now`, whose timers fire only when the test says. */
function manualClock(start: Date) {
  let now = start;
  const timers: { at: Date; run: () => void }[] = [];
  const clock: BackupClock = {
    now: () => now,
    setTimer(at, run) {
      const timer = { at, run };
      timers.push(timer);
      return { cancel: () => timers.splice(timers.indexOf(timer), 1) };
    },
  };
  return { clock, timers, set: (at: Date) => (now = at) };
}

function schedule(
  app: TestApp,
  dir: string,
  keep: number,
  clock = manualClock(new Date()).clock,
  catchUp = false,
): BackupSchedule {
  const started = startBackupSchedule({
    orm: app.app.orm,
    dataDir: app.config.dataDir,
    settings: { dir, keep, time: { hour: 3, minute: 30 } },
    logger,
    clock,
    catchUp,
  });
  schedules.push(started);
  return started;
}

async function entries(action: string): Promise<AuditEntry[]> {
  return t.app.orm.em.fork().find(AuditEntry, { action }, { orderBy: { id: 'asc' } });
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const file = await createAudioFile(t);
  await addCover(t, file.id, CoverStorage.file);
  if (t.databaseUrl) other = await startTestApp({ databaseUrl: t.databaseUrl, dataDir: t.config.dataDir });
});

afterAll(async () => {
  await Promise.all(schedules.map((s) => s.stop()));
  await other?.close();
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('scheduled backups', () => {
  it('read BACKUP_TIME and BACKUP_KEEP, refusing a time that is not HH:MM', () => {
    const env = z.object(backupEnv);
    expect(backupSettings(env.parse({ BACKUP_DIR: work, BACKUP_TIME: '23:05', BACKUP_KEEP: '3' }))).toEqual({
      dir: work,
      time: { hour: 23, minute: 5 },
      keep: 3,
    });
    expect(backupSettings(env.parse({}))).toMatchObject({ dir: null, time: { hour: 3, minute: 0 }, keep: 7 });
    expect(env.safeParse({ BACKUP_TIME: '3:00' }).error?.issues[0].message).toMatch(/HH:MM in UTC/);
    expect(env.safeParse({ BACKUP_KEEP: '0' }).error?.issues[0].message).toMatch(/at least 1/);
  });

  it('plan the next run at the daily time, UTC', () => {
    const time = { hour: 3, minute: 30 };
    expect(nextSlot(new Date('2026-11-27T01:00:00Z'), time)).toEqual(new Date('2026-11-27T03:30:00Z'));
    expect(nextSlot(new Date('2026-11-27T03:30:00Z'), time)).toEqual(new Date('2026-11-28T03:30:00Z'));
    expect(nextSlot(new Date('2026-12-31T23:59:00Z'), time)).toEqual(new Date('2027-01-01T03:30:00Z'));
    expect(previousSlot(new Date('2026-11-27T03:30:00Z'), time)).toEqual(new Date('2026-11-27T03:30:00Z'));
    expect(previousSlot(new Date('2027-01-01T01:00:00Z'), time)).toEqual(new Date('2026-12-31T03:30:00Z'));
  });

  it('run once across two instances, recorded with size and duration', async () => {
    const dir = path.join(work, 'once');
    const slot = new Date('2026-11-27T03:30:00Z');
    const outcomes = await Promise.all([schedule(t, dir, 5).runSlot(slot), schedule(other ?? t, dir, 5).runSlot(slot)]);
    expect(outcomes.sort()).toEqual(['completed', 'skipped']);
    expect(readdirSync(dir)).toEqual(['pal-backup-20261127T0330Z.tar']);
    const [completed] = await entries('backup.completed');
    expect(completed.details).toMatchObject({ slot: slot.toISOString(), mediaFiles: 2 });
    expect(completed.details?.bytes).toBeGreaterThan(0);
    expect(completed.details?.durationMs).toEqual(expect.any(Number));
    // A replica whose timer fires late finds the slot taken.
    expect(await schedule(other ?? t, dir, 5).runSlot(slot)).toBe('skipped');
  });

  it('keep the newest BACKUP_KEEP backups', async () => {
    const dir = path.join(work, 'keep');
    const runs = schedule(t, dir, 2);
    for (const day of ['01', '02', '03', '04']) {
      expect(await runs.runSlot(new Date(`2026-10-${day}T03:30:00Z`))).toBe('completed');
    }
    expect(readdirSync(dir).sort()).toEqual(['pal-backup-20261003T0330Z.tar', 'pal-backup-20261004T0330Z.tar']);
  });

  it('fire at the planned time and plan the next day', async () => {
    const dir = path.join(work, 'timer');
    const { clock, timers, set } = manualClock(new Date('2026-09-01T12:00:00Z'));
    schedule(t, dir, 3, clock);
    expect(timers.map((timer) => timer.at)).toEqual([new Date('2026-09-02T03:30:00Z')]);
    set(timers[0].at);
    timers[0].run();
    await expect.poll(() => timers.length, { timeout: 20_000 }).toBe(2);
    expect(readdirSync(dir)).toEqual(['pal-backup-20260902T0330Z.tar']);
    expect(timers[1].at).toEqual(new Date('2026-09-03T03:30:00Z'));
  });

  it('catch up at start on a slot missed while down, once across two instances', async () => {
    const dir = path.join(work, 'catch-up');
    // Up again three days after the last success (the earlier tests' runs): the latest slot was missed.
    const later = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    const [first, second] = [manualClock(later), manualClock(later)];
    const starting = [schedule(t, dir, 3, first.clock, true), schedule(other ?? t, dir, 3, second.clock, true)];
    const outcomes = await Promise.all(starting.map((s) => s.caughtUp));
    expect(outcomes.sort()).toEqual(['completed', 'skipped']);
    const missed = previousSlot(later, { hour: 3, minute: 30 });
    expect(readdirSync(dir)).toEqual([`pal-backup-${missed.toISOString().replace(/[-:]/g, '').slice(0, 13)}Z.tar`]);
    // Each then plans the next slot as usual.
    await expect.poll(() => [first.timers.length, second.timers.length]).toEqual([1, 1]);
    expect(first.timers[0].at).toEqual(nextSlot(later, { hour: 3, minute: 30 }));
    // A start within a day of the last success runs nothing at once.
    expect(await schedule(t, dir, 3, manualClock(new Date()).clock, true).caughtUp).toBe('current');
    expect(readdirSync(dir)).toHaveLength(1);
    // Without the option (the other tests), no catch-up.
    expect(await schedule(t, dir, 3, manualClock(later).clock).caughtUp).toBeNull();
  });

  it('record a failure for the dashboard, cleared by the next success', async () => {
    const blocked = path.join(work, 'not-a-folder');
    writeFileSync(blocked, '');
    expect(await schedule(t, blocked, 3).runSlot(new Date('2026-08-01T03:30:00Z'))).toBe('failed');
    const status = await latestBackupStatus(t.app.orm.em.fork());
    expect(status.failing).toBe(true);
    expect(status.lastFailure?.details.error).toMatch(/not-a-folder/);
    const dashboard = await t.gql<{
      dashboardStats: { backupStatus: { failing: boolean; lastFailure: { error: string } } };
    }>('{ dashboardStats { backupStatus { failing lastFailure { error } } } }', {}, admin);
    expect(dashboard.data?.dashboardStats.backupStatus).toMatchObject({
      failing: true,
      lastFailure: { error: expect.stringMatching(/not-a-folder/) },
    });
    expect(await schedule(t, path.join(work, 'fine'), 3).runSlot(new Date('2026-08-02T03:30:00Z'))).toBe('completed');
    expect((await latestBackupStatus(t.app.orm.em.fork())).failing).toBe(false);
  });

  it("answer the dashboard's status to administrators only", async () => {
    expect((await backupStatus(await ctxOf(admin.userId, admin.sessionId))).failing).toBe(false);
    const user = await createUser(t);
    await expect(backupStatus(await ctxOf(user.id, null))).rejects.toThrow(/Administrator access required/);
  });
});

/** A service context of a signed-in caller, as the request context would make it. */
async function ctxOf(userId: string, sessionId: string | null): Promise<Ctx> {
  const em = t.app.orm.em.fork();
  const user = await em.findOneOrFail(User, { id: userId });
  const session = sessionId ? await em.findOneOrFail(DeviceSession, { id: sessionId }) : null;
  const meta = { requestId: 'test', ip: null, userAgent: null, deviceId: null };
  const caller = session
    ? { user, session, apiKey: null }
    : { user, session: null, apiKey: { id: 'k', name: 'k', scopes: [], expiresAt: null, rateLimitPerMinute: 60 } };
  return { em, deps: t.app.deps, meta, caller };
}

describe("an administrator's backup download", () => {
  it('streams a whole archive and records it under their name, leaving the schedule status alone', async () => {
    const out = new PassThrough();
    const names: string[] = [];
    const extract = tar.extract();
    const listed = (async () => {
      for await (const entry of extract) {
        names.push(entry.header.name);
        entry.resume();
      }
    })();
    out.pipe(extract);
    const summary = await streamBackup(await ctxOf(admin.userId, admin.sessionId), out);
    await listed;
    expect(names[0]).toBe('backup.json');
    expect(names.at(-1)).toBe('manifest.json');
    expect(names.filter((n) => n.startsWith('files/covers/'))).toHaveLength(1);
    expect(summary.bytes).toBeGreaterThan(0);
    const [recorded] = await t.app.orm.em
      .fork()
      .find(AuditEntry, { action: 'backup.completed', user: admin.userId }, { orderBy: { id: 'desc' }, limit: 1 });
    expect(recorded.details).toMatchObject({ bytes: summary.bytes, download: true });
    expect((await latestBackupStatus(t.app.orm.em.fork())).lastSuccess?.details.slot).toEqual(expect.any(String));
  });

  it('is refused to anyone but an administrator', async () => {
    const user = await createUser(t);
    await expect(streamBackup(await ctxOf(user.id, null), new PassThrough())).rejects.toThrow(
      /Administrator access required/,
    );
  });
});
