import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parsePage, type Page } from '../../graphql/paging.js';
import { parseId, parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { isAdmin, requireAdmin } from '../auth/auth.policy.js';
import { emailSchema, nameSchema, passwordSchema } from '../auth/auth.schemas.js';
import { hashPassword } from '../auth/auth.service.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { parseSearch } from '../files/search-term.js';
import { allOf, anyOf, containsAny, inList } from '../files/sql-condition.js';
import { User, UserRole } from './user.entity.js';

const EMAIL_TAKEN = 'An account with this email already exists';
const roleSchema = z.enum(UserRole, { error: "role must be 'user' or 'admin'" });

const createUserSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema.nullish().transform((r) => r ?? UserRole.user),
});

const updateUserSchema = z.object({
  name: nameSchema.nullish(),
  email: emailSchema.nullish(),
  role: roleSchema.nullish(),
  isLocked: z.boolean({ error: 'isLocked must be true or false' }).nullish(),
});

export interface UserListArgs extends Partial<Page> {
  search?: string | null;
}

async function findUser(ctx: Ctx, userId: string): Promise<User> {
  const user = await ctx.em.findOne(User, { id: parseId(userId, 'userId') });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

async function ensureEmailFree(ctx: Ctx, email: string, exceptId?: string): Promise<void> {
  if (await ctx.em.count(User, { email, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) {
    throw new AppError('CONFLICT', EMAIL_TAKEN);
  }
}

async function flushUnique(ctx: Ctx): Promise<void> {
  await ctx.em.flush().catch((err: unknown) => {
    if (err instanceof Error && /unique/i.test(err.message)) throw new AppError('CONFLICT', EMAIL_TAKEN);
    throw err;
  });
}

export async function userCount(ctx: Ctx): Promise<number> {
  requireAdmin(ctx);
  return ctx.em.count(User, {});
}

/**
 * A user as lists show it, read as plain data. It deliberately has no `isAdmin`: that is a getter on
 * User (GraphQL turns a row into a User to read it; an own `isAdmin` would break that copy).
 */
export type UserSummary = Pick<
  User,
  'id' | 'name' | 'email' | 'role' | 'isLocked' | 'lockUntil' | 'avatarUrl' | 'createdAt'
>;

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  is_locked: boolean;
  lock_until: string | null;
  avatar_url: string | null;
  created_at: string;
}

/** Users searched by name, email or role, newest first: two statements, whatever the number of rows. */
export async function listUsers(ctx: Ctx, args: UserListArgs = {}): Promise<{ total: number; items: UserSummary[] }> {
  requireAdmin(ctx);
  const page = parsePage({ offset: args.offset, limit: args.limit });
  const search = parseSearch(args.search);
  let where = allOf([]);
  if (search) {
    const roles = Object.values(UserRole).filter((role) => role.includes(search.toLowerCase()));
    where = anyOf([containsAny(['name', 'email'], search), inList('role', roles)]);
  }
  const [rows, [{ total }]] = await Promise.all([
    ctx.em.execute<UserRow[]>(
      `select id, name, email, role, is_locked, lock_until, avatar_url, created_at
       from users where ${where.sql} order by created_at desc, id asc limit ? offset ?`,
      [...where.params, page.limit, page.offset],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from users where ${where.sql}`, where.params),
  ]);
  const items = rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    isLocked: row.is_locked,
    lockUntil: row.lock_until === null ? null : new Date(row.lock_until),
    avatarUrl: row.avatar_url,
    createdAt: new Date(row.created_at),
  }));
  return { total, items };
}

export async function getUser(ctx: Ctx, userId: string): Promise<User> {
  requireAdmin(ctx);
  return findUser(ctx, userId);
}

export async function createUser(ctx: Ctx, rawInput: unknown): Promise<User> {
  requireAdmin(ctx);
  const input = parseInput(createUserSchema, rawInput);
  await ensureEmailFree(ctx, input.email);
  const user = ctx.em.create(User, {
    name: input.name,
    email: input.email,
    role: input.role,
    passwordHash: await hashPassword(input.password),
  });
  recordAudit(ctx, { action: 'user.created', user, details: { role: input.role } });
  await flushUnique(ctx);
  return user;
}

/** Name, email, role and the policy lock. Locking ends the user's sessions at once. */
export async function updateUser(ctx: Ctx, userId: string, rawInput: unknown): Promise<User> {
  const caller = requireAdmin(ctx);
  const input = parseInput(updateUserSchema, rawInput);
  const user = await findUser(ctx, userId);
  if (user.id === caller.user.id && (input.isLocked || (input.role && input.role !== UserRole.admin))) {
    throw new AppError('BAD_USER_INPUT', 'You cannot lock your own account or remove your own administrator role');
  }
  if (input.email && input.email !== user.email) await ensureEmailFree(ctx, input.email, user.id);
  const before = { name: user.name, email: user.email, role: user.role, isLocked: user.isLocked };
  if (input.name) user.name = input.name;
  if (input.email) user.email = input.email;
  if (input.role) user.role = input.role;
  let endedSessionIds: string[] = [];
  if (input.isLocked === true && !user.isLocked) {
    user.isLocked = true;
    const active = await ctx.em.find(DeviceSession, { user, isActive: true });
    for (const s of active) Object.assign(s, { isActive: false, endedAt: new Date(), endReason: 'locked_by_admin' });
    endedSessionIds = active.map((s) => s.id);
  } else if (input.isLocked === false) {
    // Unlocking lifts the temporary lock too, as the unlock action does.
    Object.assign(user, { isLocked: false, lockUntil: null, failedLoginCount: 0 });
  }
  recordAudit(ctx, { action: 'user.updated', user, details: { before } });
  await flushUnique(ctx);
  if (endedSessionIds.length) {
    publishSecurityEvent(ctx.deps.pubSub, user.id, 'FORCED_LOGOUT', {
      sessionIds: endedSessionIds,
      message: 'Your account has been locked by an administrator.',
    });
  }
  return user;
}

/**
 * Deletes a user with their sessions, grants and checkpoints (the database cascades). The audit
 * log keeps the entry with the email. Administrators cannot be deleted.
 */
export async function deleteUser(ctx: Ctx, userId: string): Promise<User> {
  const caller = requireAdmin(ctx);
  const user = await findUser(ctx, userId);
  if (isAdmin(user)) throw new AppError('FORBIDDEN', 'Administrators cannot be deleted');
  await ctx.em.transactional(async (tx) => {
    recordAudit(
      ctx,
      {
        action: 'user.deleted',
        user: null,
        email: user.email,
        details: { deletedUserId: user.id, actorId: caller.user.id },
      },
      tx,
    );
    await tx.nativeDelete(User, { id: user.id });
  });
  publishSecurityEvent(ctx.deps.pubSub, user.id, 'FORCED_LOGOUT', { message: 'Your account has been deleted.' });
  return user;
}
