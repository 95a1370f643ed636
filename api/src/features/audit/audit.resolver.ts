import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import { PageArgs, parsePage } from '../../graphql/paging.js';
import { requireAdmin } from '../auth/auth.policy.js';
import { AuditEntry } from './audit-entry.entity.js';
import { AuditLogPage } from './audit.types.js';

@Resolver()
export class AuditResolver {
  @Query(() => AuditLogPage, { description: 'Administrators: the security audit log, newest first.' })
  async auditLog(@Args(() => PageArgs) pageArgs: PageArgs, @Ctx() ctx: GqlContext): Promise<AuditLogPage> {
    requireAdmin(ctx);
    const page = parsePage(pageArgs);
    const [rows, total] = await ctx.em.findAndCount(
      AuditEntry,
      {},
      { orderBy: { createdAt: 'desc', id: 'desc' }, offset: page.offset, limit: page.limit },
    );
    return {
      total,
      items: rows.map((r) => ({
        id: String(r.id),
        userId: r.user?.id ?? null,
        email: r.actorEmail ?? null,
        action: r.action,
        deviceId: r.deviceId ?? null,
        deviceSessionId: r.deviceSessionId ?? null,
        ipAddress: r.ipAddress ?? null,
        userAgent: r.userAgent ?? null,
        details: r.details ?? null,
        createdAt: r.createdAt,
      })),
    };
  }
}
