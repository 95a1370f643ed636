import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { Checkpoint } from './checkpoint.entity.js';
import * as checkpoints from './checkpoints.service.js';
import { CreateCheckpointInput } from './checkpoints.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';

@Resolver(() => Checkpoint)
export class CheckpointResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [Checkpoint], { description: "The caller's own checkpoints in a file they may see, in playing order." })
  checkpoints(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<Checkpoint[]> {
    return checkpoints.listCheckpoints(ctx, fileId);
  }

  @DeviceOnly()
  @Mutation(() => Checkpoint, { description: 'Bookmark a moment of a file the caller may see.' })
  createCheckpoint(
    @Arg('input', () => CreateCheckpointInput, { description: 'The checkpoint to make.' }) input: CreateCheckpointInput,
    @Ctx() ctx: GqlContext,
  ): Promise<Checkpoint> {
    return checkpoints.createCheckpoint(ctx, input);
  }

  @DeviceOnly()
  @Mutation(() => Boolean, { description: 'Delete one of your own checkpoints.' })
  deleteCheckpoint(
    @Arg('id', () => ID, { description: 'The checkpoint id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    return checkpoints.deleteCheckpoint(ctx, id);
  }

  @FieldResolver(() => ID, { description: 'The file the checkpoint is in.' })
  fileId(@Root() checkpoint: Checkpoint): string {
    return checkpoint.file.id;
  }

  @FieldResolver(() => ID, { description: 'The owner: always the caller.' })
  userId(@Root() checkpoint: Checkpoint): string {
    return checkpoint.user.id;
  }
}
