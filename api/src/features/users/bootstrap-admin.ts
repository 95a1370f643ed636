import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import { startupLocks } from '../../db/orm.js';
import type { Logger } from '../../logger.js';
import { hashPassword } from '../auth/auth.service.js';
import { User, UserRole } from './user.entity.js';

/**
 * Creates the first administrator when none exists. Without ADMIN_PASSWORD a password is
 * generated and answered, for main to show once in the terminal (stdout), never in the log.
 * Replicas starting at once take turns (an advisory lock held until the transaction ends), so one
 * of them creates it.
 */
export async function ensureFirstAdmin(orm: MikroORM, config: AppConfig, logger: Logger): Promise<string | null> {
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
  if (password === null) return null;
  logger.info('admin.created', { email: config.adminEmail });
  return config.adminPassword ? null : password;
}

/** The generated password in a box, so that it stands out among the start-up lines. */
export function generatedPasswordNotice(email: string, password: string): string {
  const line = `First administrator ${email}, password (generated, shown only this once): ${password}`;
  const rule = '─'.repeat(line.length + 2);
  return [`┌${rule}┐`, `│ ${line} │`, `└${rule}┘`].join('\n') + '\n';
}
