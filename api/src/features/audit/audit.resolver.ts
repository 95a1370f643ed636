import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { PageArgs } from '../../paging.js';
import { listAuditLog } from './audit.service.js';
import { AuditLogPage } from './audit.types.js';

@Resolver()
export class AuditResolver {
  @Query(() => AuditLogPage, { description: 'Administrators: the security audit log, newest first.' })
  auditLog(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: GqlContext): Promise<AuditLogPage> {
    return listAuditLog(ctx, page);
  }
}
