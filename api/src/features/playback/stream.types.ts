import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Whether and how a file can be played by the caller.' })
export class DrmStatus {
  @Field(() => ID, { description: 'The file.' }) fileId!: string;
  @Field({ description: 'Always true: audio is delivered in ranges, never as one download.' })
  chunkedStreaming!: boolean;
  @Field({ description: 'Always true: bytes reach only a signed-in, permitted session.' }) protected!: boolean;
  @Field(() => Float, { description: 'Seconds.' }) duration!: number;
  @Field(() => Float, { description: 'Bytes.' }) size!: number;
  @Field({ description: 'The audio type of the file.' }) mimeType!: string;
  @Field(() => Int, { description: 'Chapters finalized and playable as encrypted HLS.' }) readyChapters!: number;
}

@ObjectType({ description: 'A stream session: its token is the credential in the stream URL.' })
export class StreamSessionGrant {
  @Field({ description: 'Put in /api/v1/drm/stream/{sessionToken}; valid until expiresAt while access lasts.' })
  sessionToken!: string;
  @Field(() => Float, { description: 'Seconds.' }) duration!: number;
  @Field({ description: 'Path of the audio stream, relative to the server.' }) streamUrl!: string;
  @Field({ description: 'When the session token stops working.' }) expiresAt!: Date;
}

@InputType({ description: 'The part of a file a seek URL covers.' })
export class SignedUrlInput {
  @Field(() => Float, { description: 'Seconds from the start.' }) startTime!: number;
  @Field(() => Float, { defaultValue: -1, description: 'Seconds, or -1 for the end of the file.' }) endTime!: number;
  @Field(() => Int, { defaultValue: 1800000, description: 'Lifetime in milliseconds, at most 1800000 (30 minutes).' })
  expiresIn!: number;
}

@ObjectType({ description: 'A signed URL for seeking; a changed byte or a later expiry makes it invalid.' })
export class SignedUrlGrant {
  @Field({ description: 'Path relative to the server.' }) signedUrl!: string;
  @Field({ description: 'When the URL stops working.' }) expiresAt!: Date;
}

@ObjectType({ description: 'A signed HLS playlist URL for one ready chapter.' })
export class ChapterStreamUrl {
  @Field({ description: 'Path relative to the server; the key it names needs this session signed in.' })
  streamUrl!: string;
  @Field({ description: 'When the URL stops working.' }) expiresAt!: Date;
}
