// Where the bench finds the built API and the repository root.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** An importable URL of a module of the built API (api/dist). */
export function dist(relative) {
  return pathToFileURL(path.join(repoRoot, 'api/dist', relative)).href;
}
