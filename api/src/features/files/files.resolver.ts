import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { Chapter } from '../chapters/chapter.entity.js';
import { AudioFile } from './audio-file.entity.js';
import * as admin from './file-admin.service.js';
import { coverImagePathOf, coverUrlOf } from './file-loaders.js';
import * as files from './files.service.js';
import { ConnectionArgs, PageArgs, type Connection } from '../../paging.js';
import {
  AdminFileFilterArgs,
  AudioFileConnection,
  AudioFilePage,
  LibraryFilterArgs,
  UpdateFileInput,
} from './files.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class LibraryResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFilePage, {
    description:
      'The library: files the caller may see (public files, live grants; every file for administrators), newest first.',
  })
  audioFiles(
    @Args(() => LibraryFilterArgs) filter: LibraryFilterArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFilePage> {
    return files.listLibrary(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFileConnection, {
    description: 'The library as a cursor connection, for sync: the same files, visibility and orders as audioFiles.',
  })
  audioFilesConnection(
    @Args(() => LibraryFilterArgs) filter: LibraryFilterArgs,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<files.FileSummary>> {
    return files.libraryConnection(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFile, {
    description: 'One file the caller may see, with its chapters. NOT_FOUND when it does not exist or is not visible.',
  })
  audioFile(
    @Arg('id', () => ID, { description: 'The file id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return files.getFile(ctx, id);
  }
}

@Resolver()
export class AdminFilesResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFilePage, {
    description: 'Administrators: every file, searched and filtered by public flag, newest first.',
  })
  adminFiles(
    @Args(() => AdminFileFilterArgs) filter: AdminFileFilterArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFilePage> {
    return admin.listAdminFiles(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFileConnection, {
    description: 'Administrators: every file as a cursor connection, for sync; the same filters as adminFiles.',
  })
  adminFilesConnection(
    @Args(() => AdminFileFilterArgs) filter: AdminFileFilterArgs,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<files.FileSummary>> {
    return admin.adminFileConnection(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => AudioFile, { description: 'Administrators: any file by id.' })
  adminFile(
    @Arg('id', () => ID, { description: 'The file id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return admin.getAdminFile(ctx, id);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => AudioFile, {
    description: 'Administrators: change a file. To upload a cover, use PUT /api/v1/admin/files/{id} (multipart).',
  })
  updateFile(
    @Arg('id', () => ID, { description: 'The file id.' }) id: string,
    @Arg('input', () => UpdateFileInput, { description: 'The changes.' }) input: UpdateFileInput,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return admin.updateFile(ctx, id, input);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Boolean, {
    description: 'Administrators: delete a file with its audio, cover, chapters, segments, grants and checkpoints.',
  })
  deleteFile(
    @Arg('id', () => ID, { description: 'The file id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    return admin.deleteFile(ctx, id);
  }
}

/** Whether a field is resolved inside a list (a path key is an index). */
function isInList(path: GraphQLResolveInfo['path'] | undefined): boolean {
  for (let at = path; at; at = at.prev) if (typeof at.key === 'number') return true;
  return false;
}

// Roots are typed FileSummary, not AudioFile: TypeGraphQL then passes list rows as they are instead
// of copying each into a new AudioFile for every field it resolves.
@Resolver(() => AudioFile)
export class AudioFileFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'REST URL of the cover image when it is stored as a file (fetch it with the bearer token).',
  })
  async coverImagePath(@Root() file: files.FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return coverImagePathOf(file.id, await ctx.loaders.coverStorageByFile.load(file.id));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The cover as a data: URL when it is stored inline, on a single file only: null in lists, where coverUrl serves every cover.',
  })
  async coverImageBase64(
    @Root() file: files.FileSummary,
    @Ctx() ctx: GqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<string | null> {
    // Inline covers made a library page 30 times heavier and impossible to cache.
    if (isInList(info.path)) return null;
    return ctx.loaders.coverDataUrlByFile.load(file.id);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'REST URL of the cover image, whichever the storage; null when the file has none. Fetch it with the bearer token; it is privately cacheable and revalidated (ETag).',
  })
  async coverUrl(@Root() file: files.FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return coverUrlOf(file.id, await ctx.loaders.coverStorageByFile.load(file.id));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'As coverUrl, for a copy at most 512 pixels on its long side, for cards and lists.',
  })
  async coverThumbnailUrl(@Root() file: files.FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return coverUrlOf(file.id, await ctx.loaders.coverStorageByFile.load(file.id), 'thumbnail');
  }

  @FieldResolver(() => [Chapter], { description: 'Chapters in playing order.' })
  chapters(@Root() file: files.FileSummary, @Ctx() ctx: GqlContext): Promise<Chapter[]> {
    return ctx.loaders.chaptersByFile.load(file.id);
  }
}
