import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { ConnectionArgs, type Connection } from '../../paging.js';
import { DeviceSessionConnection } from '../auth/auth.types.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import * as sessions from './user-sessions.service.js';
import { User } from './user.entity.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class UserSessionsResolver {
  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => [DeviceSession], { description: "Administrators: a user's active device sessions." })
  userSessions(
    @Arg('userId', () => ID, { description: 'The account id.' }) userId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<DeviceSession[]> {
    return sessions.listUserSessions(ctx, userId);
  }

  @Scopes(ApiKeyScope.USERS_READ)
  @Query(() => DeviceSessionConnection, {
    description: "Administrators: a user's active device sessions as a cursor connection; most recent first.",
  })
  userSessionsConnection(
    @Arg('userId', () => ID, { description: 'The account id.' }) userId: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<DeviceSession>> {
    return sessions.userSessionConnection(ctx, userId, page);
  }

  @Scopes(ApiKeyScope.USERS_WRITE)
  @Mutation(() => Boolean, {
    description: "Administrators: end one of a user's sessions; that device is signed out at once.",
  })
  terminateUserSession(
    @Arg('userId', () => ID, { description: 'The account id.' }) userId: string,
    @Arg('sessionId', () => ID, { description: 'The device session id.' }) sessionId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    return sessions.terminateUserSession(ctx, userId, sessionId);
  }

  @Scopes(ApiKeyScope.USERS_WRITE)
  @Mutation(() => User, { description: 'Administrators: lift the policy lock and the temporary lock.' })
  unlockUser(
    @Arg('userId', () => ID, { description: 'The account id.' }) userId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return sessions.unlockUser(ctx, userId);
  }
}
