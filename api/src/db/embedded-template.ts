import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A cluster made once at build time (make-embedded-template.ts) with every migration applied. A
 * first start copies it instead of running initdb, which costs most of a first start's time and
 * grows the database's WASM heap to about 900 MiB on the way. Absent when running from the sources
 * (tests), where a first start makes its cluster as before.
 */
export const templateDir = fileURLToPath(new URL('./pgdata-template', import.meta.url));

export const hasCluster = (dir: string): boolean => existsSync(path.join(dir, 'PG_VERSION'));

/**
 * Copies the template to `dataDir`, through a sibling folder renamed into place so that a start
 * cut off halfway leaves no half cluster behind. Answers false when there is no template.
 */
export function copyTemplate(dataDir: string, from = templateDir): boolean {
  if (!hasCluster(from)) return false;
  const partial = `${dataDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  cpSync(from, partial, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(partial, dataDir);
  return true;
}
