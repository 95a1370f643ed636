import { randomUUID } from 'node:crypto';
import {
  Entity,
  Index,
  OneToOne,
  OptionalProps,
  ManyToOne,
  PrimaryKey,
  PrimaryKeyProp,
  Property,
} from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';

@ObjectType({ description: 'A series of books.' })
@Entity({ tableName: 'series' })
export class Series {
  [OptionalProps]?: 'createdAt';

  @Field(() => ID, { description: 'The series id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field({ description: 'The name as first written on a book.' })
  @Property({ length: 200 })
  name!: string;

  /** nameKeyOf(name): one record per series name, however it is cased. */
  @Property({ length: 200, unique: true })
  nameKey!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/**
 * What a file says about the book it holds beyond its title: read from its tags on upload, edited
 * by administrators. Genres are a text array with a GIN index, so `genres @> {name}` filters fast.
 */
@Entity({ tableName: 'book_details' })
@Index({ properties: ['genres'], type: 'gin' })
export class BookDetails {
  [PrimaryKeyProp]?: 'file';
  [OptionalProps]?: 'genres';

  @OneToOne({ entity: () => AudioFile, primary: true, owner: true, deleteRule: 'cascade' })
  file!: AudioFile;

  @Property({ length: 200, nullable: true })
  subtitle?: string | null;

  @Property({ type: 'smallint', nullable: true })
  year?: number | null;

  @Property({ length: 200, nullable: true })
  publisher?: string | null;

  @Property({ length: 50, nullable: true })
  language?: string | null;

  @Property({ type: 'text[]', default: '{}' })
  genres: string[] = [];

  @ManyToOne(() => Series, { nullable: true, deleteRule: 'set null', index: true })
  series?: Series | null;

  /** The book's place in its series as written: "1", "2.5"; ordered as a number where it is one. */
  @Property({ length: 20, nullable: true })
  seriesPosition?: string | null;
}
