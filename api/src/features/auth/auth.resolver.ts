import { filter, pipe } from '@graphql-yoga/subscription';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import type { SecurityEventPayload } from './security-events.js';
import { ConnectionArgs, type Connection } from '../../paging.js';
import { User } from '../users/user.entity.js';
import { requireDeviceCaller } from '../../caller-policy.js';
import * as auth from './auth.service.js';
import * as devices from './devices.service.js';
import { login } from './login.service.js';
import { recheckCaller } from './authenticate.js';
import {
  DeviceSessionConnection,
  LoginInput,
  LoginResult,
  RegisterInput,
  SecurityEvent,
  UpdateDetailsInput,
} from './auth.types.js';
import { DeviceSession } from './device-session.entity.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';

@Resolver()
export class AuthResolver {
  @Scopes()
  @Query(() => User, { description: 'The signed-in user.' })
  me(@Ctx() ctx: GqlContext): User {
    return auth.me(ctx);
  }

  @DeviceOnly()
  @Mutation(() => LoginResult, {
    description:
      'Sign in from a device. A new device first answers requiresDeviceApproval; repeat with deviceApproved: true. A further device beyond the allowed count locks the account.',
  })
  login(
    @Arg('input', () => LoginInput, { description: 'The credentials and the device.' }) input: LoginInput,
    @Ctx() ctx: GqlContext,
  ): Promise<LoginResult> {
    return login(ctx, input) as Promise<LoginResult>;
  }

  @DeviceOnly()
  @Mutation(() => LoginResult, {
    description:
      'Create an account and sign in on this device. Like login, it first answers requiresDeviceApproval and creates nothing; repeat with deviceApproved: true.',
  })
  register(
    @Arg('input', () => RegisterInput, { description: 'The new account and the device.' }) input: RegisterInput,
    @Ctx() ctx: GqlContext,
  ): Promise<LoginResult> {
    return auth.register(ctx, input) as Promise<LoginResult>;
  }

  @DeviceOnly()
  @Mutation(() => Boolean, { description: 'End the session on this device.' })
  logout(@Ctx() ctx: GqlContext): Promise<boolean> {
    return auth.logout(ctx);
  }

  @DeviceOnly()
  @Mutation(() => User, { description: "Change the signed-in user's name and email." })
  updateMyDetails(
    @Arg('input', () => UpdateDetailsInput, { description: 'The new name and email.' }) input: UpdateDetailsInput,
    @Ctx() ctx: GqlContext,
  ): Promise<User> {
    return auth.updateMyDetails(ctx, input);
  }

  @DeviceOnly()
  @Query(() => [DeviceSession], { description: "The signed-in user's active devices, most recent first." })
  myDevices(@Ctx() ctx: GqlContext): Promise<DeviceSession[]> {
    return devices.myDevices(ctx);
  }

  @DeviceOnly()
  @Query(() => DeviceSessionConnection, {
    description: "The signed-in user's active devices as a cursor connection; most recent first, as myDevices.",
  })
  myDevicesConnection(
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<DeviceSession>> {
    return devices.myDeviceConnection(ctx, page);
  }

  @DeviceOnly()
  @Mutation(() => Boolean, { description: 'Sign out one of your other devices (by its device id).' })
  deactivateDevice(
    @Arg('deviceId', { description: 'The device id (X-Device-ID) of the device to sign out.' }) deviceId: string,
    @Ctx() ctx: GqlContext,
  ): Promise<boolean> {
    return devices.deactivateDevice(ctx, deviceId);
  }

  @DeviceOnly()
  @Mutation(() => Int, { description: 'Sign out every device but this one; returns how many were signed out.' })
  deactivateOtherDevices(@Ctx() ctx: GqlContext): Promise<number> {
    return devices.deactivateOtherDevices(ctx);
  }

  @DeviceOnly()
  @Subscription(() => SecurityEvent, {
    description: 'Security events for this session: forced logout, account locked, session terminated, access revoked.',
    subscribe: ({ context }) => {
      const ctx = context as GqlContext;
      const caller = requireDeviceCaller(ctx);
      return pipe(
        ctx.deps.pubSub.subscribe('SECURITY_EVENT', caller.user.id),
        filter(async (event: SecurityEventPayload) => {
          if (event.sessionIds && !event.sessionIds.includes(caller.session.id)) return false;
          // News that ends sessions reaches the sessions it ends; other news (a revoked file) only
          // a session still open: a socket may outlive its logout.
          if (event.type !== 'ACCESS_REVOKED') return true;
          // A failed check drops this one event rather than the subscription (and the logouts to come).
          const live = await recheckCaller(ctx.em.fork(), caller).catch((err: unknown) => {
            ctx.deps.logger.error('security_events.recheck_failed', { error: String(err) });
            return null;
          });
          return live !== null;
        }),
      );
    },
  })
  securityEvents(@Root() event: SecurityEventPayload): SecurityEvent {
    return { type: event.type as SecurityEvent['type'], message: event.message, fileId: event.fileId, at: event.at };
  }
}

@Resolver(() => DeviceSession)
export class DeviceSessionResolver {
  @FieldResolver(() => Boolean, { description: 'True for the session making this request.' })
  isCurrent(@Root() session: DeviceSession, @Ctx() ctx: GqlContext): boolean {
    return devices.isCurrentSession(ctx.caller, session);
  }
}

@Resolver(() => User)
export class UserFieldsResolver {
  @FieldResolver(() => Int, { description: 'Active device sessions.' })
  sessionCount(@Root() user: User, @Ctx() ctx: GqlContext): Promise<number> {
    return ctx.loaders.activeSessionCount.load(user.id);
  }

  @FieldResolver(() => Boolean, { description: 'More than one active device session.' })
  async hasMultipleSessions(@Root() user: User, @Ctx() ctx: GqlContext): Promise<boolean> {
    return (await ctx.loaders.activeSessionCount.load(user.id)) > 1;
  }
}
