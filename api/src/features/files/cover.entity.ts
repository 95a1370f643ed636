import { Entity, Enum, OneToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from './audio-file.entity.js';

export enum CoverStorage {
  file = 'file',
  base64 = 'base64',
}

/** A file's cover image: either a file under DATA_DIR or inline base64 in this row, and its thumbnail. */
@Entity({ tableName: 'covers' })
export class Cover {
  [PrimaryKeyProp]?: 'file';

  @OneToOne({ entity: () => AudioFile, inversedBy: 'cover', primary: true, deleteRule: 'cascade' })
  file!: AudioFile;

  @Enum({ items: () => CoverStorage, nativeEnumName: 'cover_storage' })
  storageType!: CoverStorage;

  @Property({ length: 100 })
  mimeType!: string;

  @Property()
  size!: number;

  /** Relative to DATA_DIR when storageType is file. */
  @Property({ length: 512, nullable: true })
  path?: string | null;

  @Property({ type: 'text', nullable: true, lazy: true })
  base64?: string | null;

  /**
   * The card-sized WebP copy (cover-thumbnail.ts), stored the way the original is: relative to
   * DATA_DIR, or bytes in this row. Neither when the original is small enough to be its own.
   */
  @Property({ length: 512, nullable: true })
  thumbnailPath?: string | null;

  @Property({ type: 'bytea', nullable: true, lazy: true })
  thumbnail?: Buffer | null;

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
