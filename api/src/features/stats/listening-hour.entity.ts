import { Entity, Index, ManyToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

/**
 * Seconds a user really listened to a file within one UTC hour. Written only by the database
 * trigger on listening_progress (see the migration and listening-time.md): each progress save
 * adds the wall-clock time since the previous save when the position moved forward about as much.
 * Hours, not days, so a listener's days can be cut in their own time zone when read.
 */
@Entity({ tableName: 'listening_hours' })
@Index({ properties: ['hour'] })
export class ListeningHour {
  [PrimaryKeyProp]?: ['user', 'file', 'hour'];

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => AudioFile, { primary: true, deleteRule: 'cascade' })
  file!: AudioFile;

  /** The start of the UTC hour. */
  @Property({ type: 'timestamptz', primary: true })
  hour!: Date;

  @Property({ type: 'double precision' })
  seconds!: number;
}
