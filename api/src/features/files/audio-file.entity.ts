import { randomUUID } from 'node:crypto';
import {
  BigIntType,
  Collection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  OneToOne,
  OptionalProps,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { User } from '../users/user.entity.js';
import type { Chapter } from '../chapters/chapter.entity.js';
import type { FileAccess } from '../access/file-access.entity.js';
import type { Cover } from './cover.entity.js';

@ObjectType({ description: 'An uploaded audio file. Its bytes are reachable only through a stream session.' })
@Entity({ tableName: 'audio_files' })
@Index({ properties: ['createdAt'] })
@Index({ properties: ['isPublic'] })
export class AudioFile {
  [OptionalProps]?: 'isPublic' | 'createdAt' | 'updatedAt' | 'description';

  @Field(() => ID, { description: 'The file id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field({ description: 'The title shown in the library.' })
  @Property({ length: 200 })
  title!: string;

  @Field(() => String, { nullable: true, description: 'Free text about the file; null when there is none.' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field({ description: 'The name the file was uploaded with.' })
  @Property({ length: 255 })
  filename!: string;

  /** Path of the audio bytes relative to DATA_DIR; never exposed. */
  @Property({ length: 512, hidden: true })
  storagePath!: string;

  @Field(() => Float, { description: 'Size in bytes.' })
  @Property({ type: new BigIntType('number') })
  size!: number;

  @Field(() => Float, { description: 'Duration in seconds, read from the audio itself.' })
  @Property({ type: 'double' })
  duration!: number;

  @Field({ description: 'The audio type, read from the content (for example audio/mpeg).' })
  @Property({ length: 100 })
  mimeType!: string;

  @Field({ description: 'Public files are visible to every signed-in user.' })
  @Property({ default: false })
  isPublic: boolean = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  uploadedBy?: User | null;

  @OneToOne({ entity: () => 'Cover', mappedBy: 'file', nullable: true })
  cover?: Cover | null;

  @OneToMany({ entity: () => 'Chapter', mappedBy: 'file' })
  chapters = new Collection<Chapter>(this);

  @OneToMany({ entity: () => 'FileAccess', mappedBy: 'file' })
  fileAccesses = new Collection<FileAccess>(this);

  @Field({ description: 'When the file was uploaded.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
