import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { ApiKeyScope } from '../../api-key-scopes.js';
import type { GqlContext } from '../../graphql/context.js';
import { Scopes } from '../../graphql/scopes.js';
import * as stats from './stats.service.js';
import { ListeningOverview, MyListeningStats } from './stats.types.js';

@Resolver()
export class StatsResolver {
  @Scopes(ApiKeyScope.LIBRARY_READ)
  @Query(() => MyListeningStats, {
    description: "The caller's listening time per day and per week, and the books they finished.",
  })
  myListeningStats(
    @Arg('days', () => Int, { defaultValue: 14, description: 'How many days, today included: 1 to 366.' })
    days: number,
    @Arg('weeks', () => Int, { defaultValue: 8, description: 'How many weeks, this one included: 1 to 53.' })
    weeks: number,
    @Arg('timeZone', { defaultValue: 'UTC', description: 'The IANA time zone to cut days in, e.g. Europe/Paris.' })
    timeZone: string,
    @Ctx() ctx: GqlContext,
  ): Promise<MyListeningStats> {
    return stats.myListeningStats(ctx, { days, weeks, timeZone });
  }

  @Scopes(ApiKeyScope.LIBRARY_READ, ApiKeyScope.USERS_READ)
  @Query(() => ListeningOverview, {
    description: 'Administrators: the most played books and the active listeners over the last days.',
  })
  listeningOverview(
    @Arg('days', () => Int, { defaultValue: 30, description: 'The period: the last 1 to 366 days.' }) days: number,
    @Arg('limit', () => Int, { defaultValue: 10, description: 'Rows per list: 1 to 50.' }) limit: number,
    @Ctx() ctx: GqlContext,
  ): Promise<ListeningOverview> {
    return stats.listeningOverview(ctx, { days, limit });
  }
}
