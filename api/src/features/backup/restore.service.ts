import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedDatabase } from '../../db/embedded.js';
import { migrationNames } from '../../db/migrations/names.js';
import { openOrm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import { stageArchive, type StagedArchive } from './archive-reader.js';
import { SECRET_FILE } from './backup-format.js';
import { MIGRATIONS_TABLE } from './database-catalog.js';
import { quoteIdent } from './database-client.js';
import { restoreDatabase } from './database-load.js';

export interface RestoreTarget {
  /** Must be empty, or hold only the signing secret a first start generated. */
  dataDir: string;
  /** Real PostgreSQL, whose database must be empty; unset: the embedded one, under DATA_DIR. */
  databaseUrl?: string;
}

export interface RestoreSummary {
  /** The backup's migration level, before the restore migrated it to the current one. */
  migration: string;
  /** When the backup was made. */
  createdAt: string;
}

/** Staging folders of restores are named so; one left by a killed restore is removed by the next. */
const STAGING_PREFIX = '.restore-';
const EMBEDDED_DIR = 'pgdata';

/**
 * Restores an archive into an empty DATA_DIR and an empty database, all or nothing:
 * 1. the target is checked empty, before the archive is read;
 * 2. the archive is staged in a folder inside DATA_DIR (the same file system, so moving it into
 *    place is renames) and checked against its manifest: a refusal stops here, having changed
 *    nothing but that folder, which it removes;
 * 3. the database is rebuilt: the embedded one inside the staging folder; PostgreSQL in one
 *    transaction, not committed until the files are in place;
 * 4. the staged files are renamed into DATA_DIR; on a failure those moved go back.
 */
export async function restoreBackup(archive: Readable, target: RestoreTarget): Promise<RestoreSummary> {
  const dataDir = path.resolve(target.dataDir);
  const createdDataDir = !existsSync(dataDir);
  const leftover = await checkEmptyDataDir(dataDir);
  const orm = target.databaseUrl ? await openOrm({ url: target.databaseUrl, entities: [] }) : null;
  const staging = path.join(dataDir, `${STAGING_PREFIX}${randomUUID()}`);
  try {
    const hadMigrationsTable = orm ? await checkEmptyDatabase(orm) : false;
    await Promise.all(leftover.map((name) => rm(path.join(dataDir, name), { recursive: true, force: true })));
    await mkdir(staging, { recursive: true, mode: 0o700 });
    const staged = await stageArchive(archive, staging);
    const files = await topLevel(staged.filesDir);
    if (orm) {
      // The files go into place inside the database's transaction, and back out if it fails.
      const placed: { undo?: () => Promise<void> } = {};
      const place = async () => {
        placed.undo = await moveInto(staged.filesDir, dataDir, files);
      };
      await restoreDatabase(orm, staged.header, staged.tableFile, { atomic: true, beforeCommit: place }).catch(
        async (err: unknown) => {
          await placed.undo?.();
          // The migrator makes its table before, and outside, the transaction that rolled back.
          if (!hadMigrationsTable) await orm.em.getConnection().execute(`drop table if exists ${MIGRATIONS}`);
          throw err;
        },
      );
    } else {
      await restoreEmbedded(staged);
      await moveInto(staged.filesDir, dataDir, [...files, EMBEDDED_DIR]);
    }
    return { migration: staged.header.migration, createdAt: staged.header.createdAt };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await orm?.close(true);
    if (createdDataDir) await rmdir(dataDir).catch(() => undefined); // only if still empty: a failure
  }
}

/** The restored embedded database, built inside the staging folder; moved into place with the files. */
async function restoreEmbedded(staged: StagedArchive): Promise<void> {
  const dir = path.join(staged.filesDir, EMBEDDED_DIR);
  // The template holds every migration: usable only when the backup's schema is the current one.
  const current = staged.header.migration === migrationNames.at(-1);
  const embedded = await startEmbeddedDatabase(dir, { template: current });
  try {
    const orm = await openOrm({ embedded: embedded.connection, entities: [] });
    try {
      await restoreDatabase(orm, staged.header, staged.tableFile, { atomic: false });
    } finally {
      await orm.close(true);
    }
  } finally {
    await embedded.stop();
    await rm(`${dir}-socket`, { recursive: true, force: true });
  }
}

/** Refuses a DATA_DIR holding anything but a generated secret; answers the leftovers of killed restores. */
async function checkEmptyDataDir(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const held = names.filter((name) => name !== SECRET_FILE && !name.startsWith(STAGING_PREFIX));
  if (held.length > 0) {
    throw new AppError(
      'CONFLICT',
      `DATA_DIR (${dataDir}) is not empty (it holds ${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}): ` +
        'a restore goes only into an empty folder; point DATA_DIR at a new one, or move this one away',
    );
  }
  return names.filter((name) => name.startsWith(STAGING_PREFIX));
}

const MIGRATIONS = quoteIdent(MIGRATIONS_TABLE);

/** Refuses a database with any table but the migrator's own, empty; answers whether that one is there. */
async function checkEmptyDatabase(orm: MikroORM): Promise<boolean> {
  const connection = orm.em.getConnection();
  const tables = await connection.execute<{ name: string }[]>(
    `select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r'`,
  );
  const others = tables.map((t) => t.name).filter((name) => name !== MIGRATIONS_TABLE);
  const hasMigrationsTable = tables.length > others.length;
  const migrated =
    hasMigrationsTable &&
    (await connection.execute<{ n: number }[]>(`select count(*)::int as n from ${MIGRATIONS}`))[0].n > 0;
  if (others.length > 0 || migrated) {
    throw new AppError(
      'CONFLICT',
      'The database at DATABASE_URL is not empty: a restore goes only into an empty database; create a new one ' +
        '(createdb) and point DATABASE_URL at it',
    );
  }
  return hasMigrationsTable;
}

async function topLevel(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

/**
 * Renames each of `names` from `from` into `to`, a file it replaces (a generated secret) set aside
 * in `from`; if one fails, all go back. Answers how to undo it all, for a failure after it.
 */
async function moveInto(from: string, to: string, names: string[]): Promise<() => Promise<void>> {
  const done: { name: string; replaced: boolean }[] = [];
  const undo = async () => {
    for (const { name, replaced } of done.reverse()) {
      await rename(path.join(to, name), path.join(from, name));
      if (replaced) await rename(path.join(from, `${name}.replaced`), path.join(to, name));
    }
  };
  try {
    for (const name of names) {
      const [source, target, aside] = [path.join(from, name), path.join(to, name), path.join(from, `${name}.replaced`)];
      const replaced = existsSync(target);
      if (replaced) await rename(target, aside);
      await rename(source, target).catch(async (err: unknown) => {
        if (replaced) await rename(aside, target);
        throw err;
      });
      done.push({ name, replaced });
    }
  } catch (err) {
    await undo().catch(() => undefined);
    throw err;
  }
  return undo;
}
