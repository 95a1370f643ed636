import path from 'node:path';
import { AppError } from '../../errors.js';

/** Where each kind of bytes lives under DATA_DIR. Stored paths are relative to DATA_DIR. */
export const storageDirs = {
  audio: 'audio',
  covers: 'covers',
  chapters: 'chapters',
  uploads: 'uploads',
  tmp: 'tmp',
} as const;

/** Resolves a stored relative path, refusing anything that would leave DATA_DIR. */
export function resolveStoredPath(dataDir: string, relative: string): string {
  const root = path.resolve(dataDir);
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) throw new AppError('BAD_USER_INPUT', 'Invalid storage path');
  return full;
}
