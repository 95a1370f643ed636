import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { requireAdmin } from '../auth/auth.policy.js';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import * as access from './access.service.js';
import { FileAccessData, FileAccessGrant, GrantAccessInput } from './access.types.js';

@Resolver()
export class AccessResolver {
  @Query(() => FileAccessData, {
    description: "Administrators: a file's grants and every user, for the Manage Access screen.",
  })
  fileAccessList(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<FileAccessData> {
    return access.fileAccessList(ctx, fileId);
  }

  @Mutation(() => FileAccessGrant, {
    description:
      'Administrators: let a user see a file, optionally until a time. CONFLICT when they already hold a live grant.',
  })
  grantAccess(
    @Arg('input', () => GrantAccessInput, { description: 'The user, the file and the optional expiry.' })
    input: GrantAccessInput,
    @Ctx() ctx: GqlContext,
  ): Promise<FileAccessGrant> {
    return access.grantAccess(ctx, input);
  }

  @Mutation(() => FileAccessGrant, {
    description: "Administrators: revoke a grant; the user's open players receive ACCESS_REVOKED and stop.",
  })
  revokeAccess(
    @Arg('id', () => ID, { description: 'The grant id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<FileAccessGrant> {
    return access.revokeAccess(ctx, id);
  }
}

// The root is typed FileSummary so that list rows are not copied into a new AudioFile (see files.resolver.ts).
@Resolver(() => AudioFile)
export class AudioFileAccessResolver {
  @FieldResolver(() => [FileAccessGrant], {
    description: 'Administrators only: every grant of this file, newest first.',
  })
  async fileAccesses(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<FileAccessGrant[]> {
    requireAdmin(ctx);
    return (await ctx.loaders.grantsByFile.load(file.id)).map(access.grantView);
  }
}
