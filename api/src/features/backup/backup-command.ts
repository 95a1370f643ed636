/**
 * The commands `npm run backup -- --out FILE` and `npm run restore -- --in FILE` (scripts/backup.mjs
 * runs this from the build). They read the environment `npm start` reads: DATA_DIR, DATABASE_URL.
 */
import { createReadStream, existsSync } from 'node:fs';
import { rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from '../../config.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded.js';
import { hasCluster } from '../../db/embedded-template.js';
import { openOrm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import { SECRET_FILE } from './backup-format.js';
import { backupToFile, type BackupSummary } from './backup.service.js';
import { restoreBackup } from './restore.service.js';

const USAGE = 'Usage: npm run backup -- --out FILE   |   npm run restore -- --in FILE';

/** A refusal the person at the terminal can act on: printed as it is, without a stack. */
class CommandError extends Error {}

function flagValue(args: string[], flag: string): string {
  const at = args.indexOf(flag);
  const value = at >= 0 ? args[at + 1] : undefined;
  if (!value || value.startsWith('--')) throw new CommandError(`${flag} FILE is required. ${USAGE}`);
  return path.resolve(value);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The embedded database belongs to the server running on DATA_DIR (PGlite is one process's, and
 * a second opening its files would corrupt them); its socket answering means a server holds it.
 * Then the backup is the running server's to take (the administrators' backup action); on
 * PostgreSQL the command connects beside the server.
 */
async function openEmbedded(config: AppConfig): Promise<EmbeddedDatabase> {
  const dir = path.join(config.dataDir, 'pgdata');
  if (!hasCluster(dir))
    throw new CommandError(`There is no database in DATA_DIR (${config.dataDir}): nothing to back up`);
  try {
    return await startEmbeddedDatabase(dir);
  } catch (err) {
    if (!/Another process is serving/.test((err as Error).message)) throw err;
    throw new CommandError(
      `The server is running on DATA_DIR (${config.dataDir}) and holds its embedded database: stop the server ` +
        'and run the backup again, or take the backup from the running server as an administrator. ' +
        '(With DATABASE_URL, the command runs beside a running server.)',
    );
  }
}

async function backup(config: AppConfig, out: string): Promise<BackupSummary> {
  if (existsSync(out)) throw new CommandError(`${out} exists already: choose a new file name`);
  const embedded = config.databaseUrl ? null : await openEmbedded(config);
  try {
    const orm = await openOrm({
      ...(embedded ? { embedded: embedded.connection } : { url: config.databaseUrl! }),
      entities: [],
    });
    try {
      return await backupToFile({ em: orm.em, dataDir: config.dataDir }, out);
    } finally {
      await orm.close(true);
    }
  } finally {
    await embedded?.stop();
  }
}

async function restore(env: NodeJS.ProcessEnv, archive: string): Promise<string> {
  if (!existsSync(archive)) throw new CommandError(`${archive} does not exist`);
  // loadConfig makes DATA_DIR and, without SECRET, a secret in it: a refused restore takes them back.
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const hadDataDir = existsSync(dataDir);
  const hadSecret = existsSync(path.join(dataDir, SECRET_FILE));
  const config = loadConfig(env);
  try {
    const result = await restoreBackup(createReadStream(archive), {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
    });
    const where = config.databaseUrl ? 'the database at DATABASE_URL' : 'the embedded database';
    return (
      `Restored the backup of ${result.createdAt} into ${config.dataDir} and ${where}, ` +
      `migrated to the current version. Start the server with npm start.`
    );
  } catch (err) {
    if (!hadSecret) await rm(path.join(dataDir, SECRET_FILE), { force: true });
    if (!hadDataDir) await rmdir(dataDir).catch(() => undefined);
    throw err;
  }
}

/** Runs `backup` or `restore` with its flags; answers the process's exit code. */
export async function runBackupCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...flags] = args;
  try {
    if (command === 'backup') {
      const out = flagValue(flags, '--out');
      const summary = await backup(loadConfig(env), out);
      process.stdout.write(
        `Backup written to ${out}: ${mib((await stat(out)).size)}, ${summary.mediaFiles} media files, ` +
          `in ${(summary.durationMs / 1000).toFixed(1)} s (database at ${summary.migration}).\n`,
      );
      if (summary.missingMedia.length > 0) {
        process.stderr.write(
          `Warning: ${summary.missingMedia.length} files the database references were already missing from DATA_DIR ` +
            `(first: ${summary.missingMedia[0]}); the backup holds everything else.\n`,
        );
      }
      return 0;
    }
    if (command === 'restore') {
      process.stdout.write(`${await restore(env, flagValue(flags, '--in'))}\n`);
      return 0;
    }
    throw new CommandError(USAGE);
  } catch (err) {
    const known = err instanceof CommandError || err instanceof ConfigError || err instanceof AppError;
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${command === 'restore' ? 'Cannot restore' : 'Cannot back up'}: ${message}\n`);
    if (!known && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
