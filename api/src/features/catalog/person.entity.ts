import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';

/** What a person did for a book. */
export enum CreditRole {
  author = 'author',
  narrator = 'narrator',
}
registerEnumType(CreditRole, {
  name: 'CreditRole',
  description: 'What a person did for a book.',
  valuesConfig: { author: { description: 'Wrote it.' }, narrator: { description: 'Reads it aloud.' } },
});

/** One record per name, however it is cased or spaced: "ada  writer" is "Ada Writer". */
export function nameKeyOf(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

@ObjectType({ description: 'A person credited on books: an author, a narrator, or both.' })
@Entity({ tableName: 'people' })
export class Person {
  [OptionalProps]?: 'createdAt';

  @Field(() => ID, { description: 'The person id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field({ description: 'The name as first written on a book.' })
  @Property({ length: 200 })
  name!: string;

  /** nameKeyOf(name): the same person named in two books is one record. */
  @Property({ length: 200, unique: true })
  nameKey!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** A person's credit on a book, in the order the book names them. */
@Entity({ tableName: 'book_credits' })
@Unique({ properties: ['file', 'role', 'person'] })
@Index({ properties: ['person', 'role'] })
export class BookCredit {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => AudioFile, { deleteRule: 'cascade' })
  file!: AudioFile;

  @ManyToOne(() => Person, { deleteRule: 'cascade' })
  person!: Person;

  @Enum({ items: () => CreditRole, nativeEnumName: 'credit_role' })
  role!: CreditRole;

  /** From 0, in the order the book names its authors (or narrators). */
  @Property({ type: 'smallint' })
  position!: number;
}
