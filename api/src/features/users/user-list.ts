import type { Ctx } from '../../context.js';
import {
  findConnection,
  findOffsetPage,
  mapConnection,
  newestFirst,
  type Connection,
  type ConnectionInput,
  type ListQuery,
  type Ordering,
  type Page,
} from '../../paging.js';
import { requireAdmin } from '../../caller-policy.js';
import { parseSearch } from '../../search-term.js';
import { allOf, anyOf, containsAny, inList } from '../../sql-condition.js';
import { type User, UserRole } from './user.entity.js';

export interface UserListArgs {
  search?: string | null;
}

/**
 * A user as lists show it, read as plain data. It deliberately has no `isAdmin`: that is a getter on
 * User (GraphQL turns a row into a User to read it; an own `isAdmin` would break that copy).
 */
export type UserSummary = Pick<
  User,
  'id' | 'name' | 'email' | 'role' | 'isLocked' | 'lockUntil' | 'avatarUrl' | 'createdAt'
>;

export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  is_locked: boolean;
  lock_until: string | null;
  avatar_url: string | null;
  created_at: string;
}

/** The columns of a UserSummary, for statements that read users. */
export const USER_COLUMNS = ['id', 'name', 'email', 'role', 'is_locked', 'lock_until', 'avatar_url', 'created_at']
  .map((column) => `users.${column}`)
  .join(', ');

export function toUserSummary(row: UserRow): UserSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    isLocked: row.is_locked,
    lockUntil: row.lock_until === null ? null : new Date(row.lock_until),
    avatarUrl: row.avatar_url,
    createdAt: new Date(row.created_at),
  };
}

/** Users by name, then email, the id breaking ties: the order people are picked from. */
export const USERS_BY_NAME: Ordering = {
  name: 'users:name',
  keys: [
    { sql: 'users.name', type: 'text', direction: 'asc' },
    { sql: 'users.email', type: 'text', direction: 'asc' },
    { sql: 'users.id', type: 'uuid', direction: 'asc' },
  ],
};

/** Users searched by name, email or role, newest first; the offset and the cursor form read it. */
function userListQuery(ctx: Ctx, args: UserListArgs): ListQuery {
  requireAdmin(ctx);
  const search = parseSearch(args.search);
  let where = allOf([]);
  if (search) {
    const roles = Object.values(UserRole).filter((role) => role.includes(search.toLowerCase()));
    where = anyOf([containsAny(['name', 'email'], search), inList('role', roles)]);
  }
  return { from: 'users', columns: USER_COLUMNS, where, ordering: { name: 'users', keys: newestFirst('users') } };
}

/** Two statements, whatever the number of rows. */
export async function listUsers(
  ctx: Ctx,
  args: UserListArgs & Partial<Page> = {},
): Promise<{ total: number; items: UserSummary[] }> {
  const { total, rows } = await findOffsetPage<UserRow>(ctx.em, userListQuery(ctx, args), args);
  return { total, items: rows.map(toUserSummary) };
}

export async function userConnection(
  ctx: Ctx,
  args: UserListArgs & ConnectionInput = {},
): Promise<Connection<UserSummary>> {
  const connection = await findConnection<UserRow>(ctx.em, userListQuery(ctx, args), args);
  return mapConnection(connection, (rows) => rows.map(toUserSummary));
}
