import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { User } from './user.entity.js';
import * as users from './users.service.js';
import { CreateUserInput, UpdateUserInput, UserListArgs, UserPage } from './users.types.js';

@Resolver()
export class UsersResolver {
  @Query(() => UserPage, { description: 'Administrators: users searched by name, email or role, newest first.' })
  adminUsers(@Args(() => UserListArgs) args: UserListArgs, @Ctx() ctx: GqlContext): Promise<UserPage> {
    return users.listUsers(ctx, args);
  }

  @Query(() => Int, { description: 'Administrators: how many accounts exist.' })
  userCount(@Ctx() ctx: GqlContext): Promise<number> {
    return users.userCount(ctx);
  }

  @Query(() => User, { description: 'Administrators: one user by id.' })
  adminUser(
    @Arg('id', () => ID, { description: 'The account id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.getUser(ctx, id);
  }

  @Mutation(() => User, {
    description: 'Administrators: create an account with a role. CONFLICT when the email is taken.',
  })
  createUser(
    @Arg('input', () => CreateUserInput, { description: 'The account to create.' }) input: CreateUserInput,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.createUser(ctx, input);
  }

  @Mutation(() => User, { description: "Administrators: change a user's name, email, role or lock." })
  updateUser(
    @Arg('id', () => ID, { description: 'The account id.' }) id: string,
    @Arg('input', () => UpdateUserInput, { description: 'The changes.' }) input: UpdateUserInput,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.updateUser(ctx, id, input);
  }

  @Mutation(() => Boolean, {
    description:
      'Administrators: delete a user with their sessions, grants and checkpoints. Administrators cannot be deleted.',
  })
  async deleteUser(
    @Arg('id', () => ID, { description: 'The account id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    await users.deleteUser(ctx, id);
    return true;
  }
}
