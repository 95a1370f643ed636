import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { requireAdmin } from '../../caller-policy.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';
import { grantSchema } from './access.schemas.js';
import { GrantStatus } from './access.types.js';
import { FileAccess } from './file-access.entity.js';
import { isGrantLive } from './visibility.js';

const ALREADY_GRANTED = 'This user already has access to this file';

export interface GrantView {
  id: string;
  user: User;
  canView: boolean;
  grantedAt: Date;
  expiresAt: Date | null;
  status: GrantStatus;
}

export function grantStatus(grant: Pick<FileAccess, 'canView' | 'expiresAt'>, now = new Date()): GrantStatus {
  if (grant.expiresAt && grant.expiresAt.getTime() <= now.getTime()) return GrantStatus.Expired;
  return grant.canView ? GrantStatus.Active : GrantStatus.Revoked;
}

export function grantView(grant: FileAccess): GrantView {
  return {
    id: grant.id,
    user: grant.user,
    canView: grant.canView,
    grantedAt: grant.grantedAt,
    expiresAt: grant.expiresAt ?? null,
    status: grantStatus(grant),
  };
}

export async function findFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  const file = await ctx.em.findOne(AudioFile, { id: parseId(fileId, 'fileId') });
  if (!file) throw new AppError('NOT_FOUND', 'File not found');
  return file;
}

/**
 * Grants a user a file. One row per pair: a live grant is a CONFLICT; a revoked or expired one
 * is renewed in place.
 */
export async function grantAccess(ctx: Ctx, rawInput: unknown): Promise<GrantView> {
  const caller = requireAdmin(ctx);
  const input = parseInput(grantSchema, rawInput);
  const userId = parseId(input.userId, 'userId');
  const file = await findFile(ctx, input.fileId);
  const user = await ctx.em.findOne(User, { id: userId });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const existing = await ctx.em.findOne(FileAccess, { user: user.id, file: file.id }, { populate: ['user'] });
  if (existing && isGrantLive(existing)) throw new AppError('CONFLICT', ALREADY_GRANTED);
  const values = { canView: true, grantedAt: new Date(), expiresAt: input.expiresAt, grantedBy: caller.user };
  const grant = existing ? ctx.em.assign(existing, values) : ctx.em.create(FileAccess, { user, file, ...values });
  recordAudit(ctx, {
    action: 'access.granted',
    user,
    details: { fileId: file.id, grantId: grant.id, expiresAt: input.expiresAt?.toISOString() ?? null },
  });
  await ctx.em.flush().catch((err: unknown) => {
    // Two administrators granting the same pair at once: the unique index decides.
    if (err instanceof UniqueConstraintViolationException) throw new AppError('CONFLICT', ALREADY_GRANTED);
    // The file or the user was deleted between the lookups above and this write.
    if (err instanceof ForeignKeyConstraintViolationException)
      throw new AppError('NOT_FOUND', 'File or user not found');
    throw err;
  });
  return grantView(grant);
}

/** Revokes a grant (kept, shown as Revoked) and tells the user's open players to stop at once. */
export async function revokeAccess(ctx: Ctx, grantId: string): Promise<GrantView> {
  requireAdmin(ctx);
  const grant = await ctx.em.findOne(FileAccess, { id: parseId(grantId) }, { populate: ['user'] });
  if (!grant) throw new AppError('NOT_FOUND', 'Access grant not found');
  grant.canView = false;
  recordAudit(ctx, {
    action: 'access.revoked',
    user: grant.user,
    details: { fileId: grant.file.id, grantId: grant.id },
  });
  await ctx.em.flush();
  publishSecurityEvent(ctx.deps.pubSub, grant.user.id, 'ACCESS_REVOKED', { fileId: grant.file.id });
  return grantView(grant);
}
