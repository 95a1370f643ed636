import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { DeviceSession } from '../auth/device-session.entity.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

/** A short-lived right to stream one file, bound to a user, a device session and the file. */
@Entity({ tableName: 'stream_sessions' })
@Index({ properties: ['expiresAt'] })
@Index({ properties: ['deviceSession'] })
@Index({ properties: ['user'] })
export class StreamSession {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** SHA-256 of the token handed to the client; the token itself is never stored. */
  @Property({ length: 64, unique: true, hidden: true })
  tokenHash!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => DeviceSession, { deleteRule: 'cascade' })
  deviceSession!: DeviceSession;

  @ManyToOne(() => AudioFile, { deleteRule: 'cascade' })
  file!: AudioFile;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
