import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/connection.js';
import { User, UserRole } from './user.entity.js';
import type { UserSummary } from './user-list.js';

@ObjectType({ description: 'One page of users and how many match in all.' })
export class UserPage {
  @Field(() => Int, { description: 'Users matching the query, across all pages.' })
  total!: number;

  @Field(() => [User], { description: 'The users of this page.' })
  items!: UserSummary[];
}

export const UserConnection = connectionType('User', () => User, 'user');

@ArgsType()
export class UserFilterArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name or email, or a role.' })
  search?: string | null;
}

@InputType({ description: 'A new account, made by an administrator.' })
export class CreateUserInput {
  @Field({ description: 'The name shown in the app.' })
  name!: string;

  @Field({ description: 'Unique regardless of case.' })
  email!: string;

  @Field({ description: 'At least 8 characters.' })
  password!: string;

  @Field(() => UserRole, { defaultValue: UserRole.user, description: 'user unless told otherwise.' })
  role!: UserRole;
}

@InputType({ description: 'Changes to a user; omitted fields stay as they are.' })
export class UpdateUserInput {
  @Field(() => String, { nullable: true, description: 'The new name.' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'The new email; CONFLICT when another account has it.' })
  email?: string | null;

  @Field(() => UserRole, {
    nullable: true,
    description: 'The new role; demoting signs the account out of all but its allowed devices.',
  })
  role?: UserRole | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'True locks the account and signs it out everywhere; false unlocks it.',
  })
  isLocked?: boolean | null;
}
