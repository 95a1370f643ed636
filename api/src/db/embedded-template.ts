import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A cluster made once at build time (make-embedded-template.ts) with every migration applied. A
 * first start copies it instead of running initdb, which costs most of a first start's time and
 * grows the database's WASM heap to about 900 MiB on the way. Absent when running from the sources
 * (tests), where a first start makes its cluster as before unless `EMBEDDED_TEMPLATE_DIR` names
 * another (the API tests' setup names the build's when it holds the sources' migrations).
 */
export const templateDir = fileURLToPath(new URL('./pgdata-template', import.meta.url));

/** The template a first start copies: `EMBEDDED_TEMPLATE_DIR`, else the one beside this module. */
export const activeTemplateDir = (): string => process.env.EMBEDDED_TEMPLATE_DIR || templateDir;

export const hasCluster = (dir: string): boolean => existsSync(path.join(dir, 'PG_VERSION'));

/**
 * Copies the folder `from` to `to` (which must not exist), folders first with their modes, then
 * every file at once: libuv's threads copy them side by side. fs.cp copies one file after another
 * and does its walk on the main thread: 170-250 ms for the template against 40-75 ms.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true, recursive: true });
  const target = (entry: { parentPath: string; name: string }) =>
    path.join(to, path.relative(from, path.join(entry.parentPath, entry.name)));
  await mkdir(to, { mode: (await stat(from)).mode });
  // readdir lists a folder before what is inside it.
  for (const entry of entries.filter((e) => e.isDirectory()))
    await mkdir(target(entry), { mode: (await stat(path.join(entry.parentPath, entry.name))).mode });
  await Promise.all(entries.filter((e) => e.isFile()).map((e) => copyFile(path.join(e.parentPath, e.name), target(e))));
}

/**
 * Copies the template to `dataDir`, through a sibling folder renamed into place so that a start
 * cut off halfway leaves no half cluster behind. Answers false when there is no template. The copy
 * (about 40 MB in a thousand files) runs off the main thread, which builds the schema meanwhile.
 */
export async function copyTemplate(dataDir: string, from = activeTemplateDir()): Promise<boolean> {
  if (!hasCluster(from)) return false;
  const partial = `${dataDir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.dirname(dataDir), { recursive: true });
  await copyTree(from, partial);
  await rm(dataDir, { recursive: true, force: true });
  await rename(partial, dataDir);
  return true;
}
