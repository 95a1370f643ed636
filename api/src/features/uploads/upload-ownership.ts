import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId } from '../../validation.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';
import { expireUpload } from './upload-expiry.js';

/** The caller's own upload; `active` also refuses finished, cancelled and expired ones. */
export async function ownUpload(ctx: Ctx, caller: Caller, id: unknown, mustBeActive: boolean): Promise<UploadSession> {
  const session = await ctx.em.findOne(UploadSession, { id: parseId(id, 'uploadId') });
  return checkedOwnUpload(ctx, caller, session, mustBeActive);
}

/** ownUpload's checks on an upload row already read (null: no upload has the id asked for). */
export async function checkedOwnUpload(
  ctx: Ctx,
  caller: Caller,
  session: UploadSession | null,
  mustBeActive: boolean,
): Promise<UploadSession> {
  if (!session) throw new AppError('NOT_FOUND', 'Upload not found');
  if (session.owner.id !== caller.user.id)
    throw new AppError('FORBIDDEN', 'This upload belongs to another administrator');
  if (session.status === UploadStatus.active && session.expiresAt.getTime() <= Date.now()) {
    // This one at once, so the answer says it expired; the sweep job takes any others.
    await expireUpload(ctx.em, ctx.deps.config, session);
    await ctx.em.flush();
  }
  if (!mustBeActive) return session;
  switch (session.status) {
    case UploadStatus.completed:
      throw new AppError('CONFLICT', 'This upload is already completed');
    case UploadStatus.cancelled:
      throw new AppError('CONFLICT', 'This upload was cancelled');
    case UploadStatus.expired:
      throw new AppError('CONFLICT', 'This upload has expired; start it again');
  }
  return session;
}
