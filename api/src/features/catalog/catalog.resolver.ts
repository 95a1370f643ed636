import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ApiKeyScope } from '../../api-key-scopes.js';
import type { GqlContext } from '../../graphql/context.js';
import { Scopes } from '../../graphql/scopes.js';
import { PageArgs } from '../../paging.js';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import type { NamedRecord } from './catalog-loaders.js';
import * as catalog from './catalog.service.js';
import {
  BookDetailsInput,
  CatalogSearchArgs,
  GenreCount,
  PersonBooks,
  PersonPage,
  SeriesBooks,
  SeriesPage,
  SeriesPlace,
} from './catalog.types.js';
import { CreditRole, Person } from './person.entity.js';

@Resolver()
export class CatalogResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => PersonPage, {
    description: 'Authors of the books you may see, A to Z, each with how many of those books they wrote.',
  })
  authors(
    @Args(() => CatalogSearchArgs) filter: CatalogSearchArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<PersonPage> {
    return catalog.listPeople(ctx, CreditRole.author, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => PersonPage, {
    description: 'Narrators of the books you may see, A to Z, each with how many of those books they read.',
  })
  narrators(
    @Args(() => CatalogSearchArgs) filter: CatalogSearchArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<PersonPage> {
    return catalog.listPeople(ctx, CreditRole.narrator, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => PersonBooks, {
    description:
      'An author or narrator with the books you may see that they wrote and read. NOT_FOUND when you may see none of them.',
  })
  author(
    @Arg('id', () => ID, { description: 'The person id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<PersonBooks> {
    return catalog.getPersonBooks(ctx, id);
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => SeriesPage, { description: 'Series of the books you may see, A to Z, each with how many of them.' })
  seriesList(
    @Args(() => CatalogSearchArgs) filter: CatalogSearchArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<SeriesPage> {
    return catalog.listSeries(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => SeriesBooks, {
    description: 'A series with the books of it you may see, in order. NOT_FOUND when you may see none of them.',
  })
  series(
    @Arg('id', () => ID, { description: 'The series id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<SeriesBooks> {
    return catalog.getSeriesBooks(ctx, id);
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [GenreCount], { description: 'Genres of the books you may see, A to Z, with how many books each.' })
  genres(@Ctx() ctx: GqlContext): Promise<GenreCount[]> {
    return catalog.listGenres(ctx);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => AudioFile, {
    description: "Administrators: change a file's book details (authors, narrators, series, genres and the rest).",
  })
  updateBook(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('input', () => BookDetailsInput, { description: 'The changes; omitted fields stay as they are.' })
    input: BookDetailsInput,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return catalog.updateBook(ctx, fileId, input);
  }
}

// Roots are FileSummary rows, as in AudioFileFieldsResolver; each field reads through a loader.
@Resolver(() => AudioFile)
export class AudioFileBookResolver {
  @FieldResolver(() => String, { nullable: true, description: 'The subtitle; null when there is none.' })
  async subtitle(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return (await ctx.loaders.bookByFile.load(file.id)).subtitle;
  }

  @FieldResolver(() => [Person], { description: 'Authors in credit order.' })
  async authors(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<NamedRecord[]> {
    return (await ctx.loaders.creditsByFile.load(file.id)).authors;
  }

  @FieldResolver(() => [Person], { description: 'Narrators in credit order.' })
  async narrators(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<NamedRecord[]> {
    return (await ctx.loaders.creditsByFile.load(file.id)).narrators;
  }

  @FieldResolver(() => SeriesPlace, { nullable: true, description: 'Its series and place in it; null when none.' })
  async series(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<SeriesPlace | null> {
    return (await ctx.loaders.bookByFile.load(file.id)).series;
  }

  @FieldResolver(() => Int, { nullable: true, description: 'The year of publication; null when unknown.' })
  async year(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<number | null> {
    return (await ctx.loaders.bookByFile.load(file.id)).year;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The publisher; null when unknown.' })
  async publisher(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return (await ctx.loaders.bookByFile.load(file.id)).publisher;
  }

  @FieldResolver(() => [String], { description: 'Genres, as the book names them.' })
  async genres(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<string[]> {
    return (await ctx.loaders.bookByFile.load(file.id)).genres;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The language as written; null when unknown.' })
  async language(@Root() file: FileSummary, @Ctx() ctx: GqlContext): Promise<string | null> {
    return (await ctx.loaders.bookByFile.load(file.id)).language;
  }
}
