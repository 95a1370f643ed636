import { randomUUID } from 'node:crypto';
import { ArrayType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import type { ApiKeyScope } from './api-key-scopes.js';

/**
 * A service credential acting for one user, within its scopes. Only a hash of its secret is kept;
 * deleting the user deletes their keys.
 */
@Entity({ tableName: 'api_keys' })
@Index({ properties: ['user'] })
export class ApiKey {
  [OptionalProps]?: 'createdAt' | 'rateLimitPerMinute';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ length: 100 })
  name!: string;

  /** SHA-256 (hex) of the secret part of the key. */
  @Property({ length: 64, hidden: true })
  secretHash!: string;

  @Property({ type: ArrayType })
  scopes!: ApiKeyScope[];

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  @Property({ default: 600 })
  rateLimitPerMinute: number = 600;

  /** The administrator who made it; kept as null when that account is deleted. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy?: User | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null;

  @Property({ length: 64, nullable: true })
  lastUsedIp?: string | null;
}
