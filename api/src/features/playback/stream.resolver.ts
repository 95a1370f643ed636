import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { createChapterStreamUrl } from './chapter-playback.js';
import * as streams from './stream.service.js';
import { ChapterStreamUrl, DrmStatus, SignedUrlGrant, SignedUrlInput, StreamSessionGrant } from './stream.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';

@Resolver()
export class StreamResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => DrmStatus, { description: 'Whether the caller may play a file, and how it is delivered.' })
  drmStatus(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<DrmStatus> {
    return streams.drmStatus(ctx, fileId);
  }

  @DeviceOnly()
  @Mutation(() => StreamSessionGrant, {
    description:
      'Open a stream session for a file, bound to this user, this device session and the file. NOT_FOUND for a file the caller may not see, as for an unknown id.',
  })
  createStreamSession(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<StreamSessionGrant> {
    return streams.createStreamSession(ctx, fileId);
  }

  @DeviceOnly()
  @Mutation(() => SignedUrlGrant, { description: 'A signed URL for the audio from startTime, for seeking.' })
  createSignedUrl(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('input', () => SignedUrlInput, { description: 'The range and lifetime of the URL.' }) input: SignedUrlInput,
    @Ctx() ctx: GqlContext,
  ): Promise<SignedUrlGrant> {
    return streams.createSignedUrl(ctx, fileId, { ...input });
  }

  @DeviceOnly()
  @Mutation(() => ChapterStreamUrl, { description: 'A signed playlist URL for a ready chapter, for this session.' })
  chapterStreamUrl(
    @Arg('fileId', () => ID, { description: 'The file id.' }) fileId: string,
    @Arg('chapterId', () => ID, { description: 'The chapter id; the chapter must be ready.' }) chapterId: string,
    @Arg('expiresIn', () => Int, { defaultValue: 1800000, description: 'Milliseconds, at most 1800000.' })
    expiresIn: number,
    @Ctx() ctx: GqlContext,
  ): Promise<ChapterStreamUrl> {
    return createChapterStreamUrl(ctx, fileId, chapterId, { expiresIn });
  }
}
