import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile } from '../access/visibility.js';
import { requireCaller } from '../../caller-policy.js';
import { Checkpoint } from './checkpoint.entity.js';
import type { CheckpointView } from './checkpoints.views.js';
import { createCheckpointSchema } from './checkpoints.schemas.js';

/** The caller's own checkpoints in a file they may see, in playing order. */
export async function listCheckpoints(ctx: Ctx, fileId: string): Promise<Checkpoint[]> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  return ctx.em.find(
    Checkpoint,
    { file: file.id, user: caller.user.id },
    { orderBy: { timestamp: 'asc', createdAt: 'asc' } },
  );
}

/** Bookmarks a whole second of a visible file, clamped between 0 and the file's duration. */
export async function createCheckpoint(ctx: Ctx, rawInput: unknown): Promise<Checkpoint> {
  const caller = requireCaller(ctx);
  const input = parseInput(createCheckpointSchema, rawInput);
  const file = await findVisibleFile(ctx.em, caller, parseId(input.fileId, 'fileId'));
  const timestamp = Math.min(Math.max(0, Math.round(input.timestamp)), Math.floor(file.duration));
  const checkpoint = ctx.em.create(Checkpoint, {
    file,
    user: caller.user,
    timestamp,
    name: input.name,
    description: input.description,
  });
  await ctx.em.persist(checkpoint).flush();
  return checkpoint;
}

/**
 * Only the owner may delete a checkpoint, even after losing access to its file. Checkpoints are
 * private, so another user's answers as an unknown id does: its existence is not theirs to learn.
 */
export async function deleteCheckpoint(ctx: Ctx, checkpointId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  const checkpoint = await ctx.em.findOne(Checkpoint, { id: parseId(checkpointId, 'id'), user: caller.user.id });
  if (!checkpoint) throw new AppError('NOT_FOUND', 'Checkpoint not found');
  await ctx.em.remove(checkpoint).flush();
  return true;
}

/** The REST shape, with the ids of the file and the owner. */
export function checkpointView(c: Checkpoint): CheckpointView {
  return {
    id: c.id,
    fileId: c.file.id,
    userId: c.user.id,
    timestamp: c.timestamp,
    name: c.name,
    description: c.description ?? null,
    createdAt: c.createdAt,
  };
}
