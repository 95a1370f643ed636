import { Entity, Index, ManyToOne, OptionalProps, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

/** A file on a user's own "Want to listen" list: one row per (user, file), never shown to others. */
@Entity({ tableName: 'want_to_listen' })
@Index({ properties: ['user', 'addedAt'] })
@Index({ properties: ['file'] })
export class WantToListen {
  [PrimaryKeyProp]?: ['user', 'file'];
  [OptionalProps]?: 'addedAt';

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => AudioFile, { primary: true, deleteRule: 'cascade' })
  file!: AudioFile;

  @Property({ type: 'timestamptz' })
  addedAt: Date = new Date();
}
