import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';

/** A named, ordered shelf of files curated by administrators. */
@Entity({ tableName: 'collections' })
export class Collection {
  [OptionalProps]?: 'description' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/**
 * A file's place in a collection: one row per (collection, file). Positions only order the rows;
 * gaps left by a removal are harmless, and a reorder writes them all again from 0.
 */
@Entity({ tableName: 'collection_items' })
@Index({ properties: ['collection', 'position'] })
@Index({ properties: ['file'] })
export class CollectionItem {
  [PrimaryKeyProp]?: ['collection', 'file'];
  [OptionalProps]?: 'addedAt';

  @ManyToOne(() => Collection, { primary: true, deleteRule: 'cascade' })
  collection!: Collection;

  @ManyToOne(() => AudioFile, { primary: true, deleteRule: 'cascade' })
  file!: AudioFile;

  @Property()
  position!: number;

  @Property({ type: 'timestamptz' })
  addedAt: Date = new Date();
}
