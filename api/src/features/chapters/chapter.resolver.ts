import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import type { ChapterEventPayload } from './chapter-events.js';
import { parseId } from '../../validation.js';
import { requireAdmin } from '../../caller-policy.js';
import { recheckAdmin } from '../auth/authenticate.js';
import { finalizeChapters, type FinalizeResult as FinalizeOutcome } from './chapter-finalize.js';
import { Chapter, SegmentStorage } from './chapter.entity.js';
import * as chapters from './chapter.service.js';
import { ChapterEvent, ChapterInput, ChapterSummary, FinalizeResult, UpdateChapterInput } from './chapter.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver(() => Chapter)
export class ChapterResolver {
  @FieldResolver(() => ID, { description: 'The file this chapter belongs to.' })
  fileId(@Root() chapter: Chapter): string {
    return chapter.file.id;
  }

  @FieldResolver(() => SegmentStorage, {
    nullable: true,
    description: 'Administrators only: where the segments are kept.',
  })
  storageType(@Root() chapter: Chapter, @Ctx() ctx: GqlContext): SegmentStorage | null {
    requireAdmin(ctx);
    return chapter.storageType ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Administrators only: why finalization failed.' })
  error(@Root() chapter: Chapter, @Ctx() ctx: GqlContext): string | null {
    requireAdmin(ctx);
    return chapter.error ?? null;
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => [Chapter], { description: "A file's chapters in order, for anyone who may see the file." })
  chapters(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<Chapter[]> {
    return chapters.listChapters(ctx, fileId);
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => ChapterSummary, { description: "Counts of a file's chapters by status." })
  chapterStatus(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<ChapterSummary> {
    return chapters.chapterSummary(ctx, fileId);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => [Chapter], {
    description: 'Administrators: add pending chapters; overlapping or out-of-range times are refused.',
  })
  createChapters(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('chapters', () => [ChapterInput], { description: 'The chapters to add, in any order.' }) input: ChapterInput[],
    @Ctx() ctx: GqlContext,
  ): Promise<Chapter[]> {
    return chapters.createChapters(ctx, fileId, {
      chapters: input.map((c) => ({ ...c, order: c.order ?? undefined })),
    });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => [Chapter], {
    description: 'Administrators: add a sensible set of pending chapters over a file without chapters.',
  })
  loadSampleChapters(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<Chapter[]> {
    return chapters.createSampleChapters(ctx, fileId);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Chapter, { description: 'Administrators: change a chapter. A failed chapter becomes pending again.' })
  updateChapter(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('chapterId', () => ID, { description: 'The chapter id.' }) chapterId: string,
    @Arg('input', () => UpdateChapterInput, { description: 'The changes.' }) input: UpdateChapterInput,
    @Ctx() ctx: GqlContext,
  ): Promise<Chapter> {
    return chapters.updateChapter(ctx, fileId, chapterId, { ...input });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => Boolean, { description: 'Administrators: delete a chapter with its key and segments.' })
  deleteChapter(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('chapterId', () => ID, { description: 'The chapter id.' }) chapterId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    return chapters.deleteChapter(ctx, fileId, chapterId);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => FinalizeResult, {
    description:
      'Administrators: encrypt every pending chapter as AES-128 HLS. Irreversible; failures are reported per chapter.',
  })
  finalizeChapters(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('storageType', () => SegmentStorage, {
      defaultValue: SegmentStorage.filesystem,
      description: 'Where to keep the encrypted segments.',
    })
    storageType: SegmentStorage,
    @Ctx() ctx: GqlContext,
  ): Promise<FinalizeOutcome> {
    return finalizeChapters(ctx, fileId, { storageType });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Subscription(() => ChapterEvent, {
    description: "Administrators: changes to a file's chapters as they happen, so a screen need not poll.",
    subscribe: ({ args, context }) => {
      const ctx = context as GqlContext;
      requireAdmin(ctx);
      return ctx.deps.pubSub.subscribe('CHAPTERS_CHANGED', parseId(args.fileId, 'fileId'));
    },
  })
  async chapterEvents(
    @Arg('fileId', () => ID, { description: 'The file whose chapters to follow.' }) _fileId: string,
    @Root() event: ChapterEventPayload,
    @Ctx() ctx: GqlContext,
  ): Promise<ChapterEvent> {
    // The subscription may outlive the caller's rights: each event goes only to an admin as of now.
    await recheckAdmin(ctx.em.fork(), ctx.caller);
    return event;
  }
}
