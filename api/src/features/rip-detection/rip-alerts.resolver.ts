import { filter, pipe } from '@graphql-yoga/subscription';
import { Ctx, FieldResolver, Resolver, Root, Subscription } from 'type-graphql';
import type { RipAlertPayload } from './rip-events.js';
import type { GqlContext } from '../../graphql/context.js';
import { isAdmin, requireAdmin } from '../../caller-policy.js';
import { recheckAdmin } from '../auth/authenticate.js';
import { DashboardStats } from '../dashboard/dashboard.types.js';
import { User } from '../users/user.entity.js';
import { alertOfPayload, RECENT_DAYS, recentRipAlerts } from './rip-alerts.js';
import { RipAlert } from './rip-alerts.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver(() => DashboardStats)
export class DashboardRipAlertsResolver {
  @Scopes(ApiKeyScope.AUDIT_READ)
  @FieldResolver(() => [RipAlert], {
    description: `Sessions and API keys suspected of ripping in the last ${RECENT_DAYS} days, newest first (at most 10).`,
  })
  ripAlerts(@Ctx() ctx: GqlContext): Promise<RipAlert[]> {
    return recentRipAlerts(ctx);
  }
}

@Resolver(() => User)
export class UserRipFlagResolver {
  @Scopes(ApiKeyScope.AUDIT_READ)
  @FieldResolver(() => Date, {
    nullable: true,
    description: `Administrators: when the account was last suspected of ripping, within the last ${RECENT_DAYS} days. Null for anyone else.`,
  })
  ripSuspectedAt(@Root() user: User, @Ctx() ctx: GqlContext): Promise<Date | null> | null {
    if (!ctx.caller || !isAdmin(ctx.caller.user)) return null;
    return ctx.loaders.ripSuspectedAt.load(user.id);
  }
}

@Resolver()
export class RipAlertSubscriptionResolver {
  @Scopes(ApiKeyScope.AUDIT_READ)
  @Subscription(() => RipAlert, {
    description: 'Administrators: each session or API key suspected of ripping, as it is detected.',
    subscribe: ({ context }) => {
      const ctx = context as GqlContext;
      const caller = requireAdmin(ctx);
      return pipe(
        ctx.deps.pubSub.subscribe('RIP_SUSPECTED'),
        // A socket may outlive its administrator's role or session: each alert checks again.
        filter(async () => {
          const still = await recheckAdmin(ctx.em.fork(), caller).catch(() => null);
          return still !== null;
        }),
      );
    },
  })
  ripAlerts(@Root() alert: RipAlertPayload): RipAlert {
    return alertOfPayload(alert);
  }
}
