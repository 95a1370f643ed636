import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
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
 * cut off halfway leaves no half cluster behind. Answers false when there is no template. The copy
 * (about 40 MB in a thousand files) runs off the main thread, which builds the schema meanwhile.
 */
export async function copyTemplate(dataDir: string, from = templateDir): Promise<boolean> {
  if (!hasCluster(from)) return false;
  const partial = `${dataDir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.dirname(dataDir), { recursive: true });
  await cp(from, partial, { recursive: true });
  await rm(dataDir, { recursive: true, force: true });
  await rename(partial, dataDir);
  return true;
}
