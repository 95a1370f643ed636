import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { ConnectionArgs, PageArgs, type Connection } from '../../paging.js';
import { auditLogConnection, listAuditLog } from './audit.service.js';
import { AuditLogEntry, AuditLogEntryConnection, AuditLogPage } from './audit.types.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { Scopes } from '../../graphql/scopes.js';

@Resolver()
export class AuditResolver {
  @Scopes(ApiKeyScope.AUDIT_READ)
  @Query(() => AuditLogPage, { description: 'Administrators: the security audit log, newest first.' })
  auditLog(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: GqlContext): Promise<AuditLogPage> {
    return listAuditLog(ctx, page);
  }

  @Scopes(ApiKeyScope.AUDIT_READ)
  @Query(() => AuditLogEntryConnection, {
    description: 'Administrators: the audit log as a cursor connection, for sync; newest first, as auditLog.',
  })
  auditLogConnection(
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Ctx() ctx: GqlContext,
  ): Promise<Connection<AuditLogEntry>> {
    return auditLogConnection(ctx, page);
  }
}
