import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger.js';
import { latestBackupStatus, recordBackupEvent } from './backup-audit.js';
import type { BackupSettings } from './backup-settings.js';
import { backupToFile } from './backup.service.js';

/** The time source and timer of the schedule, replaced in tests. */
export interface BackupClock {
  now(): Date;
  /** Calls `run` at `at`; the timer must not keep the process alive. */
  setTimer(at: Date, run: () => void): { cancel(): void };
}

export const systemClock: BackupClock = {
  now: () => new Date(),
  setTimer(at, run) {
    const timer = setTimeout(run, Math.max(0, at.getTime() - Date.now()));
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * Key of the PostgreSQL advisory lock (per database) under which replicas claim a run; beside
 * the start-up locks of db/orm.ts (7_061_401, 7_061_402).
 */
export const BACKUP_LOCK = 7_061_403;

/** A scheduled backup's file name: its slot, so the names sort by age. */
const FILE_PATTERN = /^pal-backup-\d{8}T\d{4}Z\.tar$/;
const fileNameFor = (slot: Date) =>
  `pal-backup-${slot
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\d\d\.\d{3}Z$/, 'Z')}.tar`;

/** The first daily `time` (UTC) strictly after `after`. */
export function nextSlot(after: Date, time: BackupSettings['time']): Date {
  const slot = new Date(after);
  slot.setUTCHours(time.hour, time.minute, 0, 0);
  if (slot <= after) slot.setUTCDate(slot.getUTCDate() + 1);
  return slot;
}

/** The latest daily `time` (UTC) at or before `at`: the slot a server that was down missed. */
export function previousSlot(at: Date, time: BackupSettings['time']): Date {
  const slot = nextSlot(at, time);
  slot.setUTCDate(slot.getUTCDate() - 1);
  return slot;
}

export type ScheduledRun = 'completed' | 'failed' | 'skipped';

/** A day: a last success older than this at start means a slot was missed. */
const DAY_MS = 24 * 60 * 60 * 1000;

export interface BackupSchedule {
  /** Runs the backup of `slot` unless a replica has claimed it already. */
  runSlot(slot: Date): Promise<ScheduledRun>;
  /**
   * The check made at start (with `catchUp`): 'current' when the last success is less than a day
   * old, else the outcome of the missed slot's run; null without `catchUp`.
   */
  caughtUp: Promise<ScheduledRun | 'current' | null>;
  /** Cancels the next run and waits for one under way. */
  stop(): Promise<void>;
}

export interface BackupScheduleOptions {
  orm: MikroORM;
  dataDir: string;
  settings: BackupSettings & { dir: string };
  logger: Logger;
  clock?: BackupClock;
  /** At start, run the latest slot if the last success is older than a day (the server was down). */
  catchUp?: boolean;
}

/**
 * Daily backups into `settings.dir`, one per slot across every replica on the database: each
 * replica's timer fires, and the first to claim the slot (a `backup.started` entry, written under
 * an advisory lock) runs it; the others find the claim and skip. A claim outlives the lock, so a
 * replica whose clock runs late does not run the slot again. Each run ends in the audit log
 * (completed with size and duration, or failed with why); a success deletes the oldest
 * backups past `settings.keep`.
 *
 * With `catchUp`, a start first looks at the last success: older than a day (or none), the server
 * was down at a slot, and it runs the latest slot now, claimed like any other so that replicas
 * starting together run it once. The timer is planned after it.
 */
export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { orm, dataDir, settings, logger } = options;
  const clock = options.clock ?? systemClock;
  let timer: { cancel(): void } | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function claim(slot: Date): Promise<boolean> {
    return orm.em.fork().transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(?)', [BACKUP_LOCK]);
      const claimed = await em.execute(
        `select 1 from audit_log where action = 'backup.started' and details->>'slot' = ? limit 1`,
        [slot.toISOString()],
      );
      if (claimed.length > 0) return false;
      recordBackupEvent(em, 'backup.started', { slot: slot.toISOString() });
      return true;
    });
  }

  async function removeOldBackups(): Promise<string[]> {
    const names = (await readdir(settings.dir)).filter((name) => FILE_PATTERN.test(name)).sort();
    const removed = names.slice(0, Math.max(0, names.length - settings.keep));
    for (const name of removed) await rm(path.join(settings.dir, name), { force: true });
    return removed;
  }

  async function runSlot(slot: Date): Promise<ScheduledRun> {
    if (!(await claim(slot))) return 'skipped';
    const file = path.join(settings.dir, fileNameFor(slot));
    const started = performance.now();
    const em = orm.em.fork();
    try {
      await mkdir(settings.dir, { recursive: true, mode: 0o700 });
      const summary = await backupToFile({ em: orm.em, dataDir }, file);
      const removed = await removeOldBackups();
      const details = {
        slot: slot.toISOString(),
        file,
        bytes: summary.bytes,
        durationMs: summary.durationMs,
        mediaFiles: summary.mediaFiles,
        missingMedia: summary.missingMedia.length,
        removed: removed.length,
      };
      recordBackupEvent(em, 'backup.completed', details);
      logger.info('backup.completed', details);
      if (summary.missingMedia.length > 0) {
        logger.warn('backup.missing_media', { paths: summary.missingMedia.slice(0, 20) });
      }
      return 'completed';
    } catch (err) {
      const details = {
        slot: slot.toISOString(),
        file,
        error: err instanceof Error ? err.message : String(err),
        durationMs: Math.round(performance.now() - started),
      };
      recordBackupEvent(em, 'backup.failed', details);
      logger.error('backup.failed', details);
      return 'failed';
    } finally {
      await em.flush();
    }
  }

  function plan(): void {
    if (stopped) return;
    const slot = nextSlot(clock.now(), settings.time);
    timer = clock.setTimer(slot, () => {
      running = runSlot(slot)
        .catch((err: unknown) => logger.error('backup.schedule_failed', { error: String(err) }))
        .finally(() => {
          running = null;
          plan();
        });
    });
  }

  async function catchUp(): Promise<ScheduledRun | 'current'> {
    const now = clock.now();
    const { lastSuccess } = await latestBackupStatus(orm.em.fork());
    if (lastSuccess && now.getTime() - lastSuccess.at.getTime() < DAY_MS) return 'current';
    const slot = previousSlot(now, settings.time);
    logger.info('backup.catch_up', { slot: slot.toISOString(), lastSuccess: lastSuccess?.at.toISOString() ?? null });
    return runSlot(slot);
  }

  let caughtUp: Promise<ScheduledRun | 'current' | null> = Promise.resolve(null);
  if (options.catchUp) {
    caughtUp = catchUp().catch((err: unknown) => {
      logger.error('backup.schedule_failed', { error: String(err) });
      return 'failed' as const;
    });
    running = caughtUp.finally(() => {
      running = null;
      plan();
    });
  } else {
    plan();
  }
  return {
    runSlot,
    caughtUp,
    async stop() {
      stopped = true;
      timer?.cancel();
      await running;
    },
  };
}

/** The schedule BACKUP_DIR asks for, or null without one: what the app starts once its database is open. */
export function startConfiguredBackups(
  options: Omit<BackupScheduleOptions, 'settings'> & { settings: BackupSettings },
): BackupSchedule | null {
  const { dir } = options.settings;
  return dir ? startBackupSchedule({ catchUp: true, ...options, settings: { ...options.settings, dir } }) : null;
}
