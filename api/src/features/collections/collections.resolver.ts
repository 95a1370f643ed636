import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { requireCaller } from '../../caller-policy.js';
import type { GqlContext } from '../../graphql/context.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import * as collections from './collections.service.js';
import type { CollectionSummary } from './collections.service.js';
import { Collection, CreateCollectionInput, UpdateCollectionInput } from './collections.types.js';
import * as wantToListen from './want-to-listen.service.js';

const collectionId = () => Arg('id', () => ID, { description: 'The collection id.' });
const fileIdArg = () => Arg('fileId', () => ID, { description: 'The file id.' });

@Resolver(() => Collection)
export class CollectionResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [Collection], {
    description:
      'The collections holding at least one file the caller may see, by name (administrators: every collection).',
  })
  collections(@Ctx() ctx: GqlContext): Promise<CollectionSummary[]> {
    return collections.listCollections(ctx);
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => Collection, {
    description: 'One collection; NOT_FOUND when it holds no file the caller may see, as for an unknown id.',
  })
  collection(@collectionId() id: string, @Ctx() ctx: GqlContext): Promise<CollectionSummary> {
    return collections.getCollection(ctx, id);
  }

  @FieldResolver(() => [AudioFile], { description: 'Its files the caller may see, in the collection order.' })
  async files(
    @Root() collection: CollectionSummary,
    @Arg('limit', () => Int, { nullable: true, description: 'At most this many (the first ones); all when left out.' })
    limit: number | null,
    @Ctx() ctx: GqlContext,
  ): Promise<FileSummary[]> {
    const files = await ctx.loaders.collectionsFor(requireCaller(ctx)).filesByCollection.load(collection.id);
    return limit && limit > 0 ? files.slice(0, limit) : files;
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Collection, { description: 'Administrators: make an empty collection.' })
  createCollection(
    @Arg('input', () => CreateCollectionInput, { description: 'Its name and description.' })
    input: CreateCollectionInput,
    @Ctx() ctx: GqlContext,
  ): Promise<CollectionSummary> {
    return collections.createCollection(ctx, { name: input.name, description: input.description ?? null });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Collection, { description: 'Administrators: rename a collection or change its description.' })
  updateCollection(
    @collectionId() id: string,
    @Arg('input', () => UpdateCollectionInput, { description: 'What changes.' }) input: UpdateCollectionInput,
    @Ctx() ctx: GqlContext,
  ): Promise<CollectionSummary> {
    return collections.updateCollection(ctx, id, { name: input.name ?? undefined, description: input.description });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Boolean, { description: 'Administrators: delete a collection (its files stay in the library).' })
  deleteCollection(@collectionId() id: string, @Ctx() ctx: GqlContext): Promise<boolean> {
    return collections.deleteCollection(ctx, id);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Collection, {
    description: 'Administrators: put a file at the end of a collection (a file already in it stays where it is).',
  })
  addToCollection(@collectionId() id: string, @fileIdArg() fileId: string, @Ctx() ctx: GqlContext) {
    return collections.addToCollection(ctx, id, { fileId });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Collection, { description: 'Administrators: take a file out of a collection.' })
  removeFromCollection(@collectionId() id: string, @fileIdArg() fileId: string, @Ctx() ctx: GqlContext) {
    return collections.removeFromCollection(ctx, id, fileId);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Collection, {
    description:
      'Administrators: order a collection. fileIds names every file of it once; CONFLICT when it does not (the list changed meanwhile).',
  })
  reorderCollection(
    @collectionId() id: string,
    @Arg('fileIds', () => [ID], { description: 'Every file of the collection, in the new order.' }) fileIds: string[],
    @Ctx() ctx: GqlContext,
  ): Promise<CollectionSummary> {
    return collections.reorderCollection(ctx, id, { fileIds });
  }
}

@Resolver(() => AudioFile)
export class WantToListenResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [AudioFile], {
    description: 'The caller\'s own "Want to listen" list, most recently added first (files they may see).',
  })
  wantToListen(
    @Arg('limit', () => Int, { defaultValue: 50, description: '1 to 100.' }) limit: number,
    @Ctx() ctx: GqlContext,
  ): Promise<FileSummary[]> {
    return wantToListen.listWantToListen(ctx, limit);
  }

  @DeviceOnly()
  @Mutation(() => AudioFile, {
    description:
      'Put a file the caller may see on their own "Want to listen" list. NOT_FOUND for a file they may not see.',
  })
  addToWantToListen(@fileIdArg() fileId: string, @Ctx() ctx: GqlContext): Promise<FileSummary> {
    return wantToListen.addToWantToListen(ctx, fileId);
  }

  @DeviceOnly()
  @Mutation(() => AudioFile, { description: 'Take a file off the caller\'s own "Want to listen" list.' })
  removeFromWantToListen(@fileIdArg() fileId: string, @Ctx() ctx: GqlContext): Promise<FileSummary> {
    return wantToListen.removeFromWantToListen(ctx, fileId);
  }
}

// Apart from WantToListenResolver: the query and this field share a name.
@Resolver(() => AudioFile)
export class AudioFileWantToListenResolver {
  @FieldResolver(() => Boolean, {
    description: 'Whether the file is on the caller\'s own "Want to listen" list.',
  })
  wantToListen(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<boolean> | boolean {
    if (!ctx.caller) return false;
    return ctx.loaders.collectionsFor(ctx.caller).wantToListenByFile.load(file.id);
  }
}
