import { Entity, Index, ManyToOne, OptionalProps, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

/**
 * Where a user stopped in a file: one row per (user, file), overwritten by every save. Written with
 * one upsert statement (progress.service.ts), so the entity only describes the table.
 */
@Entity({ tableName: 'listening_progress' })
@Index({ properties: ['user', 'updatedAt'] })
@Index({ properties: ['user', 'finishedAt'] })
export class ListeningProgress {
  [PrimaryKeyProp]?: ['user', 'file'];
  [OptionalProps]?: 'finished' | 'finishedAt' | 'updatedAt';

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => AudioFile, { primary: true, deleteRule: 'cascade' })
  file!: AudioFile;

  /** Seconds from the start, within the file's duration. */
  @Property({ type: 'double precision' })
  position!: number;

  @Property({ default: false })
  finished: boolean = false;

  /** When it became finished (kept while later saves keep it finished); null while not finished. */
  @Property({ type: 'timestamptz', nullable: true })
  finishedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
