import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { hashPassword } from '../auth/auth.service.js';
import { User, UserRole } from './user.entity.js';

/**
 * Creates the first administrator when none exists. Without ADMIN_PASSWORD a password is
 * generated and printed once to the terminal (stdout), never to the log.
 */
export async function ensureFirstAdmin(orm: MikroORM, config: AppConfig, logger: Logger): Promise<void> {
  const em = orm.em.fork();
  if (await em.count(User, { role: UserRole.admin })) return;
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  const existing = await em.findOne(User, { email: config.adminEmail });
  const admin =
    existing ?? em.create(User, { name: 'Administrator', email: config.adminEmail, passwordHash: '' });
  admin.role = UserRole.admin;
  admin.passwordHash = await hashPassword(password);
  await em.persist(admin).flush();
  logger.info('admin.created', { email: config.adminEmail });
  if (!config.adminPassword) {
    process.stdout.write(
      `\nFirst administrator created: ${config.adminEmail}\nGenerated password (shown once): ${password}\n\n`,
    );
  }
}
