import { Entity, ManyToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { Chapter } from './chapter.entity.js';

/** One encrypted HLS segment. Immutable once written; bytes in `data` or at `path`. */
@Entity({ tableName: 'chapter_segments' })
export class ChapterSegment {
  [PrimaryKeyProp]?: ['chapter', 'index'];

  @ManyToOne(() => Chapter, { primary: true, deleteRule: 'cascade' })
  chapter!: Chapter;

  @Property({ primary: true })
  index!: number;

  @Property({ type: 'double' })
  duration!: number;

  @Property()
  size!: number;

  @Property({ type: 'bytea', nullable: true, lazy: true })
  data?: Buffer | null;

  /** Relative to DATA_DIR when stored on the filesystem. */
  @Property({ length: 512, nullable: true })
  path?: string | null;
}
