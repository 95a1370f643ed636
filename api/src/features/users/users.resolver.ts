import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { ConnectionArgs, PageArgs, type Connection } from '../../paging.js';
import { User } from './user.entity.js';
import { listUsers, userConnection, type UserSummary } from './user-list.js';
import * as users from './users.service.js';
import { CreateUserInput, UpdateUserInput, UserConnection, UserFilterArgs, UserPage } from './users.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class UsersResolver {
  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => UserPage, { description: 'Administrators: users searched by name, email or role, newest first.' })
  adminUsers(
    @Args(() => UserFilterArgs) filter: UserFilterArgs,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<UserPage> {
    return listUsers(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => UserConnection, {
    description: 'Administrators: users as a cursor connection, for sync; the same search and order as adminUsers.',
  })
  adminUsersConnection(
    @Args(() => UserFilterArgs) filter: UserFilterArgs,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<UserSummary>> {
    return userConnection(ctx, { ...filter, ...page });
  }

  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => Int, { description: 'Administrators: how many accounts exist.' })
  userCount(@Ctx() ctx: GqlContext): Promise<number> {
    return users.userCount(ctx);
  }

  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => User, { description: 'Administrators: one user by id.' })
  adminUser(
    @Arg('id', () => ID, { description: 'The account id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.getUser(ctx, id);
  }

  @Scopes(ApiKeyScope.USERS_WRITE)
  @Mutation(() => User, {
    description: 'Administrators: create an account with a role. CONFLICT when the email is taken.',
  })
  createUser(
    @Arg('input', () => CreateUserInput, { description: 'The account to create.' }) input: CreateUserInput,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.createUser(ctx, input);
  }

  @Scopes(ApiKeyScope.USERS_WRITE)
  @Mutation(() => User, { description: "Administrators: change a user's name, email, role or lock." })
  updateUser(
    @Arg('id', () => ID, { description: 'The account id.' }) id: string,
    @Arg('input', () => UpdateUserInput, { description: 'The changes.' }) input: UpdateUserInput,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return users.updateUser(ctx, id, input);
  }

  @Scopes(ApiKeyScope.USERS_WRITE)
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
