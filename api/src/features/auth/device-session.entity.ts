import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../users/user.entity.js';

/** One row per (user, device). A signed token names its row; every request re-checks it. */
@ObjectType({ description: 'A device an account is (or was) signed in on.' })
@Entity({ tableName: 'device_sessions' })
@Unique({ properties: ['user', 'deviceId'] })
@Index({ properties: ['user', 'isActive'] })
export class DeviceSession {
  [OptionalProps]?: 'isActive' | 'createdAt' | 'lastActivity' | 'deviceType';

  @Field(() => ID, { description: 'The device session id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'The client-generated device id (X-Device-ID).' })
  @Property({ length: 128 })
  deviceId!: string;

  @Field({ description: 'A readable name for the device (browser and system).' })
  @Property({ length: 200 })
  deviceName!: string;

  @Field({ description: 'mobile, tablet or other.' })
  @Property({ length: 20 })
  deviceType: string = 'other';

  @Property({ length: 64, nullable: true })
  fingerprint?: string | null;

  @Field(() => String, { nullable: true, description: 'The address it last signed in from.' })
  @Property({ length: 64, nullable: true })
  ipAddress?: string | null;

  @Property({ length: 512, nullable: true })
  userAgent?: string | null;

  @Field({ description: 'False once signed out, ended or replaced.' })
  @Property({ default: true })
  isActive: boolean = true;

  @Field({ description: 'When the current session on this device began; a sign-in after it ended starts a new one.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field({ description: 'When it last made a request (kept to the minute).' })
  @Property({ type: 'timestamptz' })
  lastActivity: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  endedAt?: Date | null;

  @Property({ length: 40, nullable: true })
  endReason?: string | null;
}
