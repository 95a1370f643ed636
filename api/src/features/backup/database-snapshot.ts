import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DumpedSequence, DumpedTable } from './backup-format.js';
import { appSequences, appTables, migrationLevel } from './database-catalog.js';
import { inTransaction, quoteIdent, withPoolClient } from './database-client.js';
import { freezeMedia, mediaReferences } from './media-references.js';

/**
 * Rows a backup leaves out. An upload in progress keeps its parts under uploads/, which is not
 * media and not carried: restored, its row would promise chunks that are not there. Without it
 * the client finds no upload to resume and starts over; nothing is half there.
 */
const LEFT_OUT: Record<string, string> = { upload_sessions: `status <> 'active'` };

/** A new snapshot is taken when a referenced file vanished meanwhile; past this many, it was lost before. */
const SNAPSHOT_ATTEMPTS = 3;

export interface Snapshot {
  migration: string;
  tables: DumpedTable[];
  sequences: DumpedSequence[];
  /** Stored paths of the media frozen under `stagingDir/files`, each once, sorted. */
  media: string[];
  /** Referenced by the snapshot but absent from DATA_DIR at every attempt: a library that lost them. */
  missingMedia: string[];
}

/** The staging folder's parts: COPY data under db/, media links under files/. */
export const stagingParts = (stagingDir: string) => ({
  db: path.join(stagingDir, 'db'),
  files: path.join(stagingDir, 'files'),
  table: (name: string) => path.join(stagingDir, 'db', `${name}.copy`),
});

/**
 * One consistent snapshot of the database and the media it references, staged on disk.
 *
 * Logical, through the app's own pool: PGlite (PostgreSQL 17) has no server-side pg_dump, the
 * system's pg_dump (15) refuses a newer server, and @electric-sql/pglite-tools pins an older PGlite
 * than the app's. COPY TO STDOUT in one `REPEATABLE READ, READ ONLY` transaction gives a
 * consistent image of every table on both databases, in PostgreSQL's own text format (exact for
 * every type: bytea, jsonb, arrays, timestamps to the microsecond), and restores with COPY FROM.
 *
 * Order, and why: the media are hard-linked while the snapshot is open (milliseconds, see
 * freezeMedia), then the tables are copied to local files, then the transaction ends. On the
 * embedded database the transaction holds the only connection, so it writes to the local disk
 * only, never to the archive's reader (which may be a slow download), and the archive is written
 * after it, from the staged copies and links.
 */
export async function takeSnapshot(
  em: EntityManager,
  dataDir: string,
  stagingDir: string,
  afterReferences?: () => Promise<void>,
): Promise<Snapshot> {
  const parts = stagingParts(stagingDir);
  return withPoolClient(em, async (client) => {
    for (let attempt = 1; ; attempt++) {
      await rm(stagingDir, { recursive: true, force: true });
      await mkdir(parts.db, { recursive: true, mode: 0o700 });
      const snapshot = await inTransaction(client, 'isolation level repeatable read, read only', async () => {
        const migration = await migrationLevel(client);
        if (!migration) throw new Error('The database has no migrations applied: there is nothing to back up');
        const references = await mediaReferences(client);
        await afterReferences?.();
        const missing = await freezeMedia(dataDir, references, parts.files);
        if (missing.length > 0 && attempt < SNAPSHOT_ATTEMPTS) return null;
        const tables = await appTables(client);
        for (const table of tables) await copyTable(client, table, parts.table(table.name));
        return {
          migration,
          tables,
          sequences: await appSequences(client),
          media: references.filter((p) => !missing.includes(p)),
          missingMedia: missing,
        };
      });
      if (snapshot) return snapshot;
    }
  });
}

async function copyTable(client: pg.ClientBase, table: DumpedTable, file: string): Promise<void> {
  const columns = table.columns.map(quoteIdent).join(', ');
  const filter = LEFT_OUT[table.name];
  const source = filter
    ? `(select ${columns} from ${quoteIdent(table.name)} where ${filter})`
    : `${quoteIdent(table.name)} (${columns})`;
  await pipeline(client.query(copyTo(`copy ${source} to stdout`)), createWriteStream(file, { mode: 0o600 }));
}
