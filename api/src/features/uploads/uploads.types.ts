import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BookDetailsInput } from '../catalog/catalog.types.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { UploadStatus } from './upload-session.entity.js';
import type { UploadProgress } from './chunked-upload.service.js';

registerEnumType(UploadStatus, {
  name: 'UploadState',
  description: 'Where a chunked upload stands: active ones accept chunks and can be resumed.',
  valuesConfig: {
    active: { description: 'Accepting chunks.' },
    completed: { description: 'Finalized into a file.' },
    cancelled: { description: 'Stopped; what it stored is gone.' },
    expired: { description: 'Left unfinished past expiresAt; what it stored is gone.' },
  },
});

@ObjectType('UploadSession', {
  description:
    'A resumable chunked upload, as the server holds it: resume by sending the chunks not in uploadedChunks.',
})
export class UploadSessionView {
  @Field(() => ID, { description: 'The upload id, sent as X-Upload-ID with each chunk.' })
  id!: string;

  @Field({ description: 'The name of the file being uploaded.' })
  fileName!: string;

  @Field(() => Float, { description: 'Declared size in bytes.' })
  fileSize!: number;

  @Field(() => Int, { description: 'How many chunks the file is sent in.' })
  totalChunks!: number;

  @Field(() => Int, { description: 'Bytes per chunk; the last chunk holds the rest.' })
  chunkSize!: number;

  @Field({ description: 'The declared audio type.' })
  mimeType!: string;

  @Field(() => UploadStatus, { description: 'Where the upload stands.' })
  state!: UploadStatus;

  @Field(() => [Int], { description: 'Indexes (from 0) of the chunks the server really holds.' })
  uploadedChunks!: number[];

  @Field(() => Float, { description: 'Bytes held so far.' })
  uploadedBytes!: number;

  @Field(() => Float, { description: 'Percent of the file held, 0 to 100.' })
  progress!: number;

  @Field({ description: 'When the upload started.' })
  createdAt!: Date;

  @Field({ description: 'Unfinished uploads are removed after this time.' })
  expiresAt!: Date;

  @Field(() => AudioFile, { nullable: true, description: 'The file created when the upload completed.' })
  file?: AudioFile | null;
}

export function uploadSessionView({ session, uploadedChunks }: UploadProgress): UploadSessionView {
  const last = session.totalChunks - 1;
  const lastSize = session.fileSize - session.chunkSize * last;
  const complete = session.status === 'completed';
  const uploadedBytes = complete
    ? session.fileSize
    : uploadedChunks.reduce((sum, i) => sum + (i === last ? lastSize : session.chunkSize), 0);
  return {
    id: session.id,
    fileName: session.fileName,
    fileSize: session.fileSize,
    totalChunks: session.totalChunks,
    chunkSize: session.chunkSize,
    mimeType: session.mimeType,
    state: session.status,
    uploadedChunks: complete ? Array.from({ length: session.totalChunks }, (_, i) => i) : uploadedChunks,
    uploadedBytes,
    progress: session.fileSize ? Math.round((uploadedBytes / session.fileSize) * 10000) / 100 : 0,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    file: session.file ?? null,
  };
}

@InputType({ description: 'Starts a chunked upload; chunks are then sent to POST /api/v1/audio/upload/chunk.' })
export class InitUploadInput {
  @Field({ description: 'The name of the file, extension included.' })
  fileName!: string;

  @Field(() => Float, { description: 'Size in bytes.' })
  fileSize!: number;

  @Field(() => Int, { description: 'ceil(fileSize / 5242880).' })
  totalChunks!: number;

  @Field({ description: 'SHA-256 of the whole file, hex.' })
  fileHash!: string;

  @Field(() => String, { nullable: true, description: 'The declared audio type; the content is checked too.' })
  mimeType?: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Details for the file once complete (title, description, isPublic).',
  })
  metadata?: Record<string, unknown> | null;
}

export enum BookPartOrder {
  tags = 'tags',
  given = 'given',
}

registerEnumType(BookPartOrder, {
  name: 'BookPartOrder',
  description: 'The order the parts of a book are joined in.',
  valuesConfig: {
    tags: { description: 'By track number tag, then by file name as a person reads it ("2" before "10").' },
    given: { description: 'As listed in uploadIds.' },
  },
});

@InputType({
  description:
    'Joins the parts of one book, each a complete chunked upload, into one file: a stream copy, one chapter per part.',
})
export class JoinBookUploadInput {
  @Field(() => [ID], { description: 'The upload ids of the parts (2 to 500), each from initUpload, all chunks sent.' })
  uploadIds!: string[];

  @Field(() => BookPartOrder, { nullable: true, description: 'Default tags.' })
  order?: BookPartOrder | null;

  @Field(() => String, { nullable: true, description: "Blank: the first part's album tag, else its title tag." })
  title?: string | null;

  @Field(() => String, { nullable: true, description: "Blank: the first part's description tag." })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True makes the file visible to every signed-in user.' })
  isPublic?: boolean | null;
}

@InputType({
  description:
    'The file details given when a chunked upload is completed. Covers go through POST /api/v1/audio/upload/finalize/{uploadId}.',
})
export class FinalizeUploadInput extends BookDetailsInput {
  @Field(() => String, {
    nullable: true,
    description: 'Blank: the title tag of the file, else the file name without its extension.',
  })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text about the file.' })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True makes the file visible to every signed-in user.' })
  isPublic?: boolean | null;
}
