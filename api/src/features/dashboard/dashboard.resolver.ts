import { Ctx, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { dashboardStats } from './dashboard.service.js';
import { DashboardStats } from './dashboard.types.js';

@Resolver()
export class DashboardResolver {
  @Query(() => DashboardStats, { description: 'Administrators: counts, totals and the newest uploads.' })
  dashboardStats(@Ctx() ctx: GqlContext): Promise<DashboardStats> {
    return dashboardStats(ctx);
  }
}
