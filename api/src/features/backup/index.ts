import { defineFeature, type SharedServices } from '../../feature.js';
import { startConfiguredBackups } from './backup-schedule.js';
import { backupSettingsFrom } from './backup-settings.js';
import { BackupResolver, DashboardBackupResolver } from './backup.resolver.js';
import { backupRoutes } from './backup.routes.js';

const backupDeps = ({ config }: SharedServices) => ({
  /** Scheduled backups (BACKUP_DIR, BACKUP_TIME, BACKUP_KEEP). */
  backupSettings: backupSettingsFrom(config.env),
});

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof backupDeps> {}
}

export const backupFeature = defineFeature({
  name: 'backup',
  resolvers: [BackupResolver, DashboardBackupResolver],
  deps: backupDeps,
  background: ({ orm, deps }) =>
    startConfiguredBackups({ orm, dataDir: deps.config.dataDir, settings: deps.backupSettings, logger: deps.logger }),
  routes: backupRoutes,
});
