import { Entity, Enum, OneToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from './audio-file.entity.js';

export enum CoverStorage {
  file = 'file',
  base64 = 'base64',
}

/** A file's cover image: either a file under DATA_DIR or inline base64 in this row. */
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

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
