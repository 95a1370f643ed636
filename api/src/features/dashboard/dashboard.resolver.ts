import { Ctx, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { dashboardStats } from './dashboard.service.js';
import { DashboardStats } from './dashboard.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class DashboardResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ, ApiKeyScope.USERS_READ)
  @Query(() => DashboardStats, { description: 'Administrators: counts, totals and the newest uploads.' })
  dashboardStats(@Ctx() ctx: GqlContext): Promise<DashboardStats> {
    return dashboardStats(ctx);
  }
}
