import { Entity, OneToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { Chapter } from './chapter.entity.js';

/** A chapter's AES-128 key, kept in its own table so no query for chapters can carry it. */
@Entity({ tableName: 'chapter_keys' })
export class ChapterKey {
  [PrimaryKeyProp]?: 'chapter';

  @OneToOne({ entity: () => Chapter, primary: true, deleteRule: 'cascade', owner: true })
  chapter!: Chapter;

  @Property({ type: 'bytea', hidden: true })
  key!: Buffer;

  @Property({ type: 'bytea', hidden: true })
  iv!: Buffer;
}
