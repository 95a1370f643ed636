import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { appTables } from '../features/backup/database-catalog.js';
import { quoteIdent, withPoolClient } from '../features/backup/database-client.js';

/** Every row of every app table, each as its JSON text, sorted: two databases holding the same rows compare equal. */
export async function allRows(orm: MikroORM): Promise<Record<string, string[]>> {
  return withPoolClient(orm.em, async (client) => {
    const rows: Record<string, string[]> = {};
    for (const table of await appTables(client)) {
      const result = await client.query<{ row: string }>(
        `select to_jsonb(t)::text as row from ${quoteIdent(table.name)} t order by 1`,
      );
      rows[table.name] = result.rows.map((r) => r.row);
    }
    return rows;
  });
}

/** SHA-256 of every file a backup carries (media folders and the secret), by path under DATA_DIR. */
export function mediaHashes(dataDir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const add = (relative: string) => {
    hashes[relative] = createHash('sha256')
      .update(readFileSync(path.join(dataDir, relative)))
      .digest('hex');
  };
  for (const folder of ['audio', 'covers', 'chapters']) {
    if (!existsSync(path.join(dataDir, folder))) continue;
    for (const entry of readdirSync(path.join(dataDir, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) add(path.relative(dataDir, path.join(entry.parentPath, entry.name)));
    }
  }
  if (existsSync(path.join(dataDir, 'secret.key'))) add('secret.key');
  return hashes;
}

/** Everything in a folder, recursively, with each file's SHA-256: a folder a refusal must leave as it was. */
export function folderState(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const state: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    state[path.relative(dir, full)] = entry.isFile()
      ? createHash('sha256').update(readFileSync(full)).digest('hex')
      : 'folder';
  }
  return state;
}
