import { BigIntType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

/** A security event: who, what, when, from which device and address. Kept when the user is deleted. */
@Entity({ tableName: 'audit_log' })
@Index({ properties: ['createdAt'] })
@Index({ properties: ['user'] })
export class AuditEntry {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  user?: User | null;

  @Property({ length: 254, nullable: true })
  actorEmail?: string | null;

  @Property({ length: 60 })
  action!: string;

  @Property({ length: 128, nullable: true })
  deviceId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  deviceSessionId?: string | null;

  @Property({ length: 64, nullable: true })
  ipAddress?: string | null;

  @Property({ length: 512, nullable: true })
  userAgent?: string | null;

  @Property({ type: 'jsonb', nullable: true })
  details?: Record<string, unknown> | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
