import { randomUUID } from 'node:crypto';
import { BigIntType, Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';

export enum ChapterStatus {
  pending = 'pending',
  finalizing = 'finalizing',
  ready = 'ready',
  failed = 'failed',
}
registerEnumType(ChapterStatus, {
  name: 'ChapterStatus',
  description: 'Where a chapter stands on its way to encrypted HLS.',
  valuesConfig: {
    pending: { description: 'Added or changed, not finalized yet.' },
    finalizing: { description: 'Queued for finalizing, or being encoded now; ready or failed next.' },
    ready: { description: 'Finalized: encrypted and playable.' },
    failed: { description: 'Finalizing failed; the chapter keeps the reason.' },
  },
});

export enum SegmentStorage {
  database = 'database',
  filesystem = 'filesystem',
}
registerEnumType(SegmentStorage, {
  name: 'SegmentStorage',
  description: 'Where encrypted segments are kept.',
  valuesConfig: {
    database: { description: 'In database rows.' },
    filesystem: { description: 'As files under DATA_DIR.' },
  },
});

@ObjectType({ description: 'A range of a file, cut, encrypted and streamed as AES-128 HLS once finalized.' })
@Entity({ tableName: 'chapters' })
@Index({ properties: ['file', 'order'] })
export class Chapter {
  [OptionalProps]?: 'status' | 'order' | 'createdAt';

  @Field(() => ID, { description: 'The chapter id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => AudioFile, { deleteRule: 'cascade' })
  file!: AudioFile;

  @Field({ description: 'The name shown in the chapter list.' })
  @Property({ length: 200 })
  label!: string;

  @Field(() => Float, { description: 'Seconds from the start of the file.' })
  @Property({ type: 'double' })
  startTime!: number;

  @Field(() => Float, { nullable: true, description: 'Seconds; null means up to the next chapter or the end.' })
  @Property({ type: 'double', nullable: true })
  endTime?: number | null;

  @Field(() => Int, { description: 'Position in the playing order, from 0.' })
  @Property({ default: 0 })
  order: number = 0;

  @Field(() => ChapterStatus, {
    description:
      'pending until finalized; finalizing while queued or encoding; ready when playable; failed with a reason.',
  })
  @Enum({ items: () => ChapterStatus, nativeEnumName: 'chapter_status' })
  status: ChapterStatus = ChapterStatus.pending;

  /** Administrators only, in GraphQL through ChapterResolver. */
  @Enum({ items: () => SegmentStorage, nativeEnumName: 'segment_storage', nullable: true })
  storageType?: SegmentStorage | null;

  @Field(() => Float, { nullable: true, description: 'Bytes of the encoded audio before encryption.' })
  @Property({ type: new BigIntType('number'), nullable: true })
  plainSize?: number | null;

  @Field(() => Float, { nullable: true, description: 'Bytes of the encrypted segments.' })
  @Property({ type: new BigIntType('number'), nullable: true })
  encryptedSize?: number | null;

  @Field(() => Date, { nullable: true, description: 'When it was last finalized; null while pending.' })
  @Property({ type: 'timestamptz', nullable: true })
  finalizedAt?: Date | null;

  /** Why finalizing failed, as the failure said it (paths, tool output): administrators only. */
  @Property({ type: 'text', nullable: true })
  error?: string | null;

  /** The HLS media playlist with placeholder key and segment URIs; rewritten per request. */
  @Property({ type: 'text', nullable: true, hidden: true })
  playlist?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
