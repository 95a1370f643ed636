import { randomUUID } from 'node:crypto';
import { BigIntType, Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

export enum UploadStatus {
  active = 'active',
  completed = 'completed',
  cancelled = 'cancelled',
  expired = 'expired',
}

/** A resumable chunked upload. Which chunks arrived is read from disk, the source of truth. */
@Entity({ tableName: 'upload_sessions' })
@Index({ properties: ['owner', 'status'] })
@Index({ properties: ['status', 'expiresAt'] })
export class UploadSession {
  [OptionalProps]?: 'status' | 'createdAt' | 'metadata';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  owner!: User;

  @Property({ length: 255 })
  fileName!: string;

  @Property({ type: new BigIntType('number') })
  fileSize!: number;

  @Property()
  totalChunks!: number;

  @Property()
  chunkSize!: number;

  @Property({ length: 64 })
  fileHash!: string;

  @Property({ length: 100 })
  mimeType!: string;

  @Property({ type: 'jsonb', nullable: true })
  metadata?: Record<string, unknown> | null;

  @Enum({ items: () => UploadStatus, nativeEnumName: 'upload_status' })
  status: UploadStatus = UploadStatus.active;

  @ManyToOne(() => AudioFile, { nullable: true, deleteRule: 'set null' })
  file?: AudioFile | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
