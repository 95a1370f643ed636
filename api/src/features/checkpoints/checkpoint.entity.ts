import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

@ObjectType({ description: "A user's own bookmark in a file." })
@Entity({ tableName: 'checkpoints' })
@Index({ properties: ['user', 'file'] })
@Index({ properties: ['file'] })
export class Checkpoint {
  [OptionalProps]?: 'createdAt' | 'description';

  @Field(() => ID, { description: 'The checkpoint id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => AudioFile, { deleteRule: 'cascade' })
  file!: AudioFile;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => Int, { description: 'Whole seconds from the start of the file.' })
  @Property()
  timestamp!: number;

  @Field({ description: 'The name the user gave it.' })
  @Property({ length: 200 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Optional notes; null when there are none.' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field({ description: 'When it was made.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
