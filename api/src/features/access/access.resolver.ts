import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { ConnectionArgs, type Connection } from '../../paging.js';
import { requireAdmin } from '../../caller-policy.js';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import type { UserSummary } from '../users/user-list.js';
import { User } from '../users/user.entity.js';
import { UserPage } from '../users/users.types.js';
import * as access from './access.service.js';
import {
  FileAccessData,
  FileAccessGrant,
  FileAccessGrantConnection,
  GrantAccessInput,
  GrantCandidateArgs,
} from './access.types.js';
import { everyUserByName, fileAccessList, grantCandidates, grantConnection } from './grant-list.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class AccessResolver {
  @Scopes(ApiKeyScope.ACCESS_WRITE)
  @Query(() => FileAccessData, {
    description: 'Administrators: a file and its grants, for the Manage Access screen.',
  })
  fileAccessList(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<FileAccessData> {
    return fileAccessList(ctx, fileId);
  }

  @Scopes(ApiKeyScope.ACCESS_WRITE)
  @Query(() => FileAccessGrantConnection, {
    description: "Administrators: a file's grants as a cursor connection, for sync; newest first, as fileAccessList.",
  })
  fileAccessConnection(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<access.GrantView>> {
    return grantConnection(ctx, fileId, page);
  }

  @Scopes(ApiKeyScope.ACCESS_WRITE)
  @Query(() => UserPage, {
    description:
      'Administrators: the users a file can be granted to (no live grant of it yet), searched by name or email, by name.',
  })
  grantCandidates(@Args(() => GrantCandidateArgs) args: GrantCandidateArgs, @Ctx() ctx: GqlContext): Promise<UserPage> {
    return grantCandidates(ctx, args.fileId, args);
  }

  @Scopes(ApiKeyScope.ACCESS_WRITE)
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

  @Scopes(ApiKeyScope.ACCESS_WRITE)
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

@Resolver(() => FileAccessData)
export class FileAccessDataResolver {
  @FieldResolver(() => [User], {
    description: 'Every user, by name, to choose whom to grant.',
    deprecationReason: 'Every account at once; use grantCandidates, searched and limited.',
  })
  allUsers(@Ctx() ctx: GqlContext): Promise<UserSummary[]> {
    return everyUserByName(ctx);
  }
}

// The root is typed FileSummary so that list rows are not copied into a new AudioFile (see files.resolver.ts).
@Resolver(() => AudioFile)
export class AudioFileAccessResolver {
  @Scopes(ApiKeyScope.ACCESS_WRITE)
  @FieldResolver(() => [FileAccessGrant], {
    description: 'Administrators only: every grant of this file, newest first.',
  })
  async fileAccesses(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<FileAccessGrant[]> {
    requireAdmin(ctx);
    return (await ctx.loaders.grantsByFile.load(file.id)).map(access.grantView);
  }
}
