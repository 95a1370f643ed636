import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum UserRole {
  user = 'user',
  admin = 'admin',
}
registerEnumType(UserRole, {
  name: 'UserRole',
  description: 'What an account may do.',
  valuesConfig: {
    user: { description: 'Listens to the files they may see.' },
    admin: { description: 'Manages files, users, access and API keys, and sees every file.' },
  },
});

@ObjectType({ description: 'An account. Never carries the password hash.' })
@Entity({ tableName: 'users' })
@Index({
  name: 'users_email_lower_unique',
  expression: 'create unique index "users_email_lower_unique" on "users" (lower("email"))',
})
export class User {
  [OptionalProps]?: 'role' | 'isAdmin' | 'isLocked' | 'failedLoginCount' | 'createdAt' | 'updatedAt';

  @Field(() => ID, { description: 'The account id.' })
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field({ description: 'The name shown in the app.' })
  @Property({ length: 100 })
  name!: string;

  @Field({ description: 'Stored lower-cased; unique regardless of case.' })
  @Property({ length: 254 })
  email!: string;

  @Property({ length: 255, hidden: true, lazy: true })
  passwordHash!: string;

  @Field(() => UserRole, { description: 'user or admin.' })
  @Enum({ items: () => UserRole, nativeEnumName: 'user_role' })
  role: UserRole = UserRole.user;

  @Field({ description: 'True for administrators (role admin).' })
  @Property({ persist: false })
  get isAdmin(): boolean {
    return this.role === UserRole.admin;
  }

  @Field({ description: 'Locked by the single-device policy or by an administrator; only an administrator lifts it.' })
  @Property({ default: false })
  isLocked: boolean = false;

  @Field(() => Date, { nullable: true, description: 'Temporary lock after repeated failed logins.' })
  @Property({ type: 'timestamptz', nullable: true })
  lockUntil?: Date | null;

  @Property({ default: 0, hidden: true })
  failedLoginCount: number = 0;

  @Field(() => String, { nullable: true, description: 'A picture of the user; null when there is none.' })
  @Property({ type: 'text', nullable: true })
  avatarUrl?: string | null;

  @Field({ description: 'When the account was created.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
