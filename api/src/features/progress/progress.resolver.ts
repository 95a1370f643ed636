import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import * as progress from './progress.service.js';
import { ListeningProgress, SaveProgressInput } from './progress.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';

@Resolver()
export class ProgressResolver {
  @DeviceOnly()
  @Mutation(() => ListeningProgress, {
    description:
      'Store where the caller is in a file they may see (rate limited per device session). NOT_FOUND for a file they may not see.',
  })
  saveProgress(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('input', () => SaveProgressInput, { description: 'The position to keep.' }) input: SaveProgressInput,
    @Ctx() ctx: GqlContext,
  ): Promise<ListeningProgress> {
    return progress.saveProgress(ctx, fileId, { position: input.position, finished: input.finished ?? undefined });
  }

  @DeviceOnly()
  @Mutation(() => ListeningProgress, {
    description:
      'Mark a file the caller may see finished (the position moves to its end) or not finished (back to the start). NOT_FOUND for a file they may not see.',
  })
  markFinished(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('finished', () => Boolean, { description: 'True to mark it finished, false to mark it not finished.' })
    finished: boolean,
    @Ctx() ctx: GqlContext,
  ): Promise<ListeningProgress> {
    return progress.markFinished(ctx, fileId, { finished });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [AudioFile], {
    description: 'Files the caller has started and not finished, most recently played first (files they may see).',
  })
  async continueListening(
    @Arg('limit', () => Int, { defaultValue: 10, description: '1 to 50.' }) limit: number,
    @Ctx() ctx: GqlContext,
  ): Promise<FileSummary[]> {
    return withProgressPrimed(ctx, await progress.listInProgress(ctx, limit));
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [AudioFile], {
    description: 'Files the caller has finished, most recently finished first (files they may still see).',
  })
  async finishedBooks(
    @Arg('limit', () => Int, { defaultValue: 10, description: '1 to 50.' }) limit: number,
    @Ctx() ctx: GqlContext,
  ): Promise<FileSummary[]> {
    return withProgressPrimed(ctx, await progress.listFinished(ctx, limit));
  }
}

/** The list already read each row's progress: the AudioFile.progress field needs no second read. */
function withProgressPrimed(ctx: GqlContext, rows: progress.InProgressFile[]): FileSummary[] {
  const userId = ctx.caller?.user.id;
  for (const row of rows)
    if (userId) ctx.loaders.progressByUserFile.prime({ userId, fileId: row.file.id }, row.progress);
  return rows.map((row) => row.file);
}

@Resolver(() => AudioFile)
export class AudioFileProgressResolver {
  @FieldResolver(() => ListeningProgress, {
    nullable: true,
    description: "The caller's own listening position in this file; null when they have not played it.",
  })
  progress(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<ListeningProgress | null> | null {
    if (!ctx.caller) return null;
    return ctx.loaders.progressByUserFile.load({ userId: ctx.caller.user.id, fileId: file.id });
  }
}
