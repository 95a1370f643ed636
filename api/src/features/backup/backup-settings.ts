import path from 'node:path';
import { z } from 'zod';
import { parseEnv } from '../../config.js';

/** Scheduled backups, read from the environment once; docs/backups.md. */
export interface BackupSettings {
  /** Where scheduled backups are written; null: no scheduled backups. */
  dir: string | null;
  /** The daily time of the run, UTC. */
  time: { hour: number; minute: number };
  /** How many scheduled backups are kept; older ones are deleted after each successful run. */
  keep: number;
}

const TIME_MESSAGE = 'BACKUP_TIME must be a time of day as HH:MM in UTC, e.g. 03:30';
const KEEP_MESSAGE = 'BACKUP_KEEP must be a whole number of at least 1';

/** The environment variables, with their defaults. */
export const backupEnv = {
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE)
    .default('03:00'),
  BACKUP_KEEP: z.coerce.number({ error: KEEP_MESSAGE }).int(KEEP_MESSAGE).min(1, KEEP_MESSAGE).default(7),
};

type BackupEnv = z.output<z.ZodObject<typeof backupEnv>>;

export function backupSettings(e: BackupEnv): BackupSettings {
  const [hour, minute] = e.BACKUP_TIME.split(':').map(Number);
  return { dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : null, time: { hour, minute }, keep: e.BACKUP_KEEP };
}

/** The settings from the app's environment; ConfigError (start refused) with a one-line reason. */
export function backupSettingsFrom(env: NodeJS.ProcessEnv): BackupSettings {
  return backupSettings(parseEnv(z.object(backupEnv), env));
}
