import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import { startupLocks } from '../../db/orm.js';
import type { Logger } from '../../logger.js';
import { hashPassword } from '../auth/auth.service.js';
import { User, UserRole } from './user.entity.js';

/**
 * Creates the first administrator when none exists. Without ADMIN_PASSWORD a password is
 * generated and printed once to the terminal (stdout), never to the log. Replicas starting at
 * once take turns (an advisory lock held until the transaction ends), so one of them creates it.
 */
export async function ensureFirstAdmin(orm: MikroORM, config: AppConfig, logger: Logger): Promise<void> {
  const password = await orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(?)', [startupLocks.firstAdmin]);
    if (await em.count(User, { role: UserRole.admin })) return null;
    const chosen = config.adminPassword ?? randomBytes(12).toString('base64url');
    const existing = await em.findOne(User, { email: config.adminEmail });
    const admin = existing ?? em.create(User, { name: 'Administrator', email: config.adminEmail, passwordHash: '' });
    admin.role = UserRole.admin;
    admin.passwordHash = await hashPassword(chosen);
    await em.persist(admin).flush();
    return chosen;
  });
  if (password === null) return;
  logger.info('admin.created', { email: config.adminEmail });
  if (!config.adminPassword) {
    process.stdout.write(
      `\nFirst administrator created: ${config.adminEmail}\nGenerated password (shown once): ${password}\n\n`,
    );
  }
}
