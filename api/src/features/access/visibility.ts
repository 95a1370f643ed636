import { raw, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import { isAdmin } from '../auth/auth.policy.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { FileAccess } from './file-access.entity.js';

/**
 * THE visibility rule, in one place: administrators see every file; a user sees a file when it is
 * public or when they hold a grant with canView that has not expired. Lists, details, covers,
 * counts, searches, streams and keys all go through here.
 */
export function visibleFilesFilter(em: EntityManager, caller: Caller, now = new Date()): FilterQuery<AudioFile> {
  if (isAdmin(caller.user)) return {};
  // A semi-join on the caller's live grants: no join fan-out, so pages and counts need no DISTINCT.
  const liveGrants = em
    .createQueryBuilder(FileAccess, 'fa')
    .select('fa.file')
    .where({ user: caller.user.id, canView: true, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });
  // Inlined by the driver's own escaping: a raw fragment inside $in does not carry parameters.
  return { $or: [{ isPublic: true }, { id: { $in: raw(liveGrants.getFormattedQuery()) } }] };
}

export function isGrantLive(grant: Pick<FileAccess, 'canView' | 'expiresAt'>, now = new Date()): boolean {
  return grant.canView && (!grant.expiresAt || grant.expiresAt.getTime() > now.getTime());
}

/** Whether the caller may see this (existing) file right now. */
export async function canViewFile(em: EntityManager, caller: Caller, file: AudioFile): Promise<boolean> {
  if (isAdmin(caller.user) || file.isPublic) return true;
  const grant = await em.findOne(FileAccess, { user: caller.user.id, file: file.id });
  return grant !== null && isGrantLive(grant);
}

/**
 * Loads a file the caller may see. A file that exists but is not visible answers FORBIDDEN when
 * `revealExistence` (streams: the player maps 403 to its access message), else NOT_FOUND so that
 * ids of other people's files reveal nothing.
 */
export async function findVisibleFile(
  em: EntityManager,
  caller: Caller,
  fileId: string,
  options: { revealExistence?: boolean } = {},
): Promise<AudioFile> {
  const file = await em.findOne(AudioFile, { id: fileId });
  if (!file) throw new AppError('NOT_FOUND', 'Audio file not found');
  if (!(await canViewFile(em, caller, file))) {
    if (options.revealExistence) {
      throw new AppError('FORBIDDEN', 'Access denied. You do not have permission to access this file.');
    }
    throw new AppError('NOT_FOUND', 'Audio file not found');
  }
  return file;
}
