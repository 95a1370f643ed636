import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { joinBookUpload } from './book-upload.service.js';
import * as chunked from './chunked-upload.service.js';
import {
  FinalizeUploadInput,
  InitUploadInput,
  JoinBookUploadInput,
  UploadSessionView,
  uploadSessionView,
} from './uploads.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class UploadsResolver {
  @Scopes(ApiKeyScope.FILES_WRITE)
  @Query(() => UploadSessionView, {
    description: 'Administrators: one of your uploads, with the chunks the server holds.',
  })
  async uploadSession(
    @Arg('id', () => ID, { description: 'The upload id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<UploadSessionView> {
    return uploadSessionView(await chunked.uploadStatus(ctx, id));
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Query(() => [UploadSessionView], {
    description: 'Administrators: your unfinished uploads that can still be resumed, newest first.',
  })
  async myUploadSessions(@Ctx() ctx: GqlContext): Promise<UploadSessionView[]> {
    return (await chunked.myUploads(ctx)).map(uploadSessionView);
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => UploadSessionView, { description: 'Administrators: start a chunked upload.' })
  async initUpload(
    @Arg('input', () => InitUploadInput, { description: 'The file to be uploaded.' }) input: InitUploadInput,
    @Ctx() ctx: GqlContext,
  ): Promise<UploadSessionView> {
    const session = await chunked.initUpload(ctx, { ...input, mimeType: input.mimeType ?? undefined });
    return uploadSessionView({ session, uploadedChunks: [] });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => AudioFile, { description: 'Administrators: verify a complete chunked upload and create its file.' })
  finalizeUpload(
    @Arg('id', () => ID, { description: 'The upload id.' }) id: string,
    @Arg('input', () => FinalizeUploadInput, {
      nullable: true,
      description: 'Title, description and visibility of the new file; null keeps the defaults.',
    })
    input: FinalizeUploadInput | null,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return chunked.finalizeUpload(ctx, id, () => Promise.resolve({ details: { ...input }, cover: null }));
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => AudioFile, {
    description:
      'Administrators: join the parts of one book (complete chunked uploads) into one file, one chapter per part. If the join fails nothing is created and the parts are kept.',
  })
  joinBookUpload(
    @Arg('input', () => JoinBookUploadInput, { description: 'The parts and the details of the book.' })
    input: JoinBookUploadInput,
    @Ctx() ctx: GqlContext,
  ): Promise<AudioFile> {
    return joinBookUpload(ctx, { ...input, order: input.order ?? undefined });
  }

  @Scopes(ApiKeyScope.FILES_WRITE)
  @Mutation(() => UploadSessionView, { description: 'Administrators: stop an upload and remove everything it stored.' })
  async cancelUpload(
    @Arg('id', () => ID, { description: 'The upload id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<UploadSessionView> {
    return uploadSessionView({ session: await chunked.cancelUpload(ctx, id), uploadedChunks: [] });
  }
}
