import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import type { AppPubSub } from '../../event-bus.js';
import type { RipAlertPayload } from './rip-events.js';
import type { Logger } from '../../logger.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { requireAdmin } from '../../caller-policy.js';
import type { RipAlert, RipRule } from './rip-alerts.types.js';
import type { RipMeter } from './rip-meter.js';
import { RIP_SUSPECTED } from './rip-offence.js';

/** How far back the dashboard and the user list look for suspected rips. */
export const RECENT_DAYS = 7;
const DASHBOARD_ALERTS = 10;

const recentSince = () => new Date(Date.now() - RECENT_DAYS * 86_400_000);

/** Every replica throttles an account flagged on any of them (at once through a shared ledger; else by the bus). */
export function followRipAlerts(bus: AppPubSub, meter: RipMeter, logger: Logger): void {
  void (async () => {
    for await (const alert of bus.subscribe('RIP_SUSPECTED')) {
      const { userId, throttledUntil } = alert;
      meter.throttle({ userId }, new Date(throttledUntil).getTime());
    }
  })().catch((err: unknown) => logger.error('rip.alert_listener_failed', { error: String(err) }));
}

function alertOf(entry: AuditEntry): RipAlert {
  const d = entry.details ?? {};
  return {
    id: String(entry.id),
    userId: entry.user?.id ?? null,
    email: entry.actorEmail ?? null,
    deviceSessionId: entry.deviceSessionId ?? null,
    apiKeyId: (d.apiKeyId as string | undefined) ?? null,
    rule: d.rule as RipRule,
    fileId: (d.fileId as string | null | undefined) ?? null,
    speed: Number(d.speed ?? 0),
    windowSeconds: Number(d.windowSeconds ?? 0),
    addresses: Array.isArray(d.addresses) ? (d.addresses as string[]) : [],
    accountLocked: d.accountLocked === true,
    apiKeyRevoked: d.apiKeyRevoked === true,
    at: entry.createdAt,
  };
}

/** As the subscription pushes it: the same shape as the dashboard's list. */
export function alertOfPayload(p: RipAlertPayload): RipAlert {
  return {
    id: p.id,
    userId: p.userId,
    email: p.email,
    deviceSessionId: p.credential.kind === 'session' ? p.credential.id : null,
    apiKeyId: p.credential.kind === 'apiKey' ? p.credential.id : null,
    rule: p.rule as RipRule,
    fileId: p.fileId,
    speed: Math.round(p.speed * 10) / 10,
    windowSeconds: p.windowSeconds,
    addresses: p.addresses,
    accountLocked: p.accountLocked,
    apiKeyRevoked: p.apiKeyRevoked,
    at: new Date(p.at),
  };
}

/** Administrators: the suspected rips of the last RECENT_DAYS days, newest first (one query). */
export async function recentRipAlerts(ctx: Ctx): Promise<RipAlert[]> {
  requireAdmin(ctx);
  const entries = await ctx.em.find(
    AuditEntry,
    { action: RIP_SUSPECTED, createdAt: { $gte: recentSince() } },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: DASHBOARD_ALERTS },
  );
  return entries.map(alertOf);
}

/** Per request: when each user was last suspected of ripping within RECENT_DAYS, one query per list. */
export function createRipLoaders(em: EntityManager) {
  return {
    ripSuspectedAt: new DataLoader<string, Date | null>(async (userIds) => {
      const rows: { user_id: string; at: string | Date }[] = await em.execute(
        `select user_id, max(created_at) as at from ${em.getMetadata(AuditEntry).tableName}
         where action = ? and created_at >= ? and user_id in (${userIds.map(() => '?').join(', ')})
         group by user_id`,
        [RIP_SUSPECTED, recentSince(), ...userIds],
      );
      const found = new Map(rows.map((r) => [r.user_id, new Date(r.at)]));
      return userIds.map((id) => found.get(id) ?? null);
    }),
  };
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createRipLoaders> {}
}
