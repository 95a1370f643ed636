import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

/** A grant of one file to one user; at most one per pair. Live when canView and not expired. */
@Entity({ tableName: 'file_access' })
@Unique({ properties: ['user', 'file'] })
@Index({ properties: ['file'] })
export class FileAccess {
  [OptionalProps]?: 'canView' | 'grantedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => AudioFile, { deleteRule: 'cascade' })
  file!: AudioFile;

  @Property({ default: true })
  canView: boolean = true;

  @Property({ type: 'timestamptz' })
  grantedAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  grantedBy?: User | null;
}
