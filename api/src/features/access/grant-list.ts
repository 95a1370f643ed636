import type { EntityData } from '@mikro-orm/core';
import type { Ctx } from '../../context.js';
import {
  findConnection,
  findOffsetPage,
  findRows,
  mapConnection,
  type Connection,
  type ConnectionInput,
  type ListQuery,
  type Ordering,
} from '../../paging.js';
import { requireAdmin } from '../../caller-policy.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { parseSearch } from '../../search-term.js';
import { allOf, containsAny } from '../../sql-condition.js';
import { USERS_BY_NAME, USER_COLUMNS, toUserSummary, type UserRow, type UserSummary } from '../users/user-list.js';
import { User } from '../users/user.entity.js';
import { findFile, grantView, type GrantView } from './access.service.js';
import { FileAccess } from './file-access.entity.js';
import { liveGrantCondition } from './visibility.js';

/** A file's grants, newest first, the id breaking ties. */
const NEWEST_GRANTS: Ordering = {
  name: 'grants',
  keys: [
    { sql: 'fa.granted_at', type: 'timestamptz', direction: 'desc' },
    { sql: 'fa.id', type: 'uuid', direction: 'asc' },
  ],
};

type GrantRow = { grant: EntityData<FileAccess>; user: EntityData<User> };

/** Every grant of a file (revoked and expired ones too), each with its user, in one statement. */
function grantListQuery(file: AudioFile): ListQuery {
  return {
    from: 'file_access fa join users u on u.id = fa.user_id',
    columns: `to_jsonb(fa) as grant, to_jsonb(u) - 'password_hash' as user`,
    where: { sql: 'fa.file_id = ?', params: [file.id] },
    ordering: NEWEST_GRANTS,
  };
}

function toGrantViews(ctx: Ctx, rows: GrantRow[]): GrantView[] {
  return rows.map((row) => {
    // The user first: the grant's reference to it then resolves to the loaded user.
    const user = ctx.em.map(User, row.user);
    const grant = ctx.em.map(FileAccess, row.grant);
    grant.user = user;
    return grantView(grant);
  });
}

/** Administrators: a file and its grants (revoked and expired included), newest first. */
export async function fileAccessList(ctx: Ctx, fileId: string): Promise<{ file: AudioFile; grants: GrantView[] }> {
  requireAdmin(ctx);
  const file = await findFile(ctx, fileId);
  return { file, grants: toGrantViews(ctx, await findRows<GrantRow>(ctx.em, grantListQuery(file))) };
}

/** Administrators: a file's grants as a cursor connection, for sync. */
export async function grantConnection(ctx: Ctx, fileId: string, page: ConnectionInput): Promise<Connection<GrantView>> {
  requireAdmin(ctx);
  const file = await findFile(ctx, fileId);
  const connection = await findConnection<GrantRow>(ctx.em, grantListQuery(file), page);
  return mapConnection(connection, (rows) => toGrantViews(ctx, rows));
}

/** Administrators: every user, by name (the REST grant form's list). */
export async function everyUserByName(ctx: Ctx): Promise<UserSummary[]> {
  requireAdmin(ctx);
  const query: ListQuery = { from: 'users', columns: USER_COLUMNS, where: allOf([]), ordering: USERS_BY_NAME };
  return (await findRows<UserRow>(ctx.em, query)).map(toUserSummary);
}

/**
 * Administrators: whom a file can be granted to, the grant form's choices: users without a live
 * grant of it, searched by name or email, by name, at most `limit` (1 to 100) with the total.
 */
export async function grantCandidates(
  ctx: Ctx,
  fileId: string,
  args: { search?: string | null; limit?: number | null },
): Promise<{ total: number; items: UserSummary[] }> {
  requireAdmin(ctx);
  const file = await findFile(ctx, fileId);
  const search = parseSearch(args.search);
  const live = liveGrantCondition('fa');
  const where = [
    {
      sql: `not exists (select 1 from file_access fa where fa.user_id = users.id and fa.file_id = ? and ${live.sql})`,
      params: [file.id, ...live.params],
    },
  ];
  if (search) where.push(containsAny(['users.name', 'users.email'], search));
  const query: ListQuery = { from: 'users', columns: USER_COLUMNS, where: allOf(where), ordering: USERS_BY_NAME };
  const { total, rows } = await findOffsetPage<UserRow>(ctx.em, query, { limit: args.limit ?? undefined });
  return { total, items: rows.map(toUserSummary) };
}
