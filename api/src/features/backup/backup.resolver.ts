import { Ctx, FieldResolver, Mutation, Resolver } from 'type-graphql';
import { ApiKeyScope } from '../../api-key-scopes.js';
import type { GqlContext } from '../../graphql/context.js';
import { DeviceOnly, Scopes } from '../../graphql/scopes.js';
import { DashboardStats } from '../dashboard/dashboard.types.js';
import type { BackupRunRecord } from './backup-audit.js';
import { backupLink, backupStatus } from './backup-admin.service.js';
import { BackupLink, BackupRun, BackupStatus } from './backup.types.js';

const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function runOf(record: BackupRunRecord | null): BackupRun | null {
  if (!record) return null;
  const { details } = record;
  const error = typeof details.error === 'string' ? details.error : null;
  return { at: record.at, bytes: number(details.bytes), durationMs: number(details.durationMs), error };
}

@Resolver(() => DashboardStats)
export class DashboardBackupResolver {
  @Scopes(ApiKeyScope.AUDIT_READ)
  @FieldResolver(() => BackupStatus, {
    description: 'How the scheduled backups went; a failure stays raised until one succeeds.',
  })
  async backupStatus(@Ctx() ctx: GqlContext): Promise<BackupStatus> {
    const status = await backupStatus(ctx);
    return { lastSuccess: runOf(status.lastSuccess), lastFailure: runOf(status.lastFailure), failing: status.failing };
  }
}

@Resolver()
export class BackupResolver {
  @DeviceOnly()
  @Mutation(() => BackupLink, {
    description: 'Administrators on a device: a one-minute link to download a backup of the whole library.',
  })
  createBackupLink(@Ctx() ctx: GqlContext): BackupLink {
    return backupLink(ctx);
  }
}
