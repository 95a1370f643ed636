import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  findConnection,
  findRows,
  mapConnection,
  type Connection,
  type ConnectionInput,
  type ListQuery,
} from '../../paging.js';
import { DeviceSession } from './device-session.entity.js';

type SessionRow = { session: EntityData<DeviceSession> };

/** A user's active device sessions, the most recently used first, the id breaking ties. */
function activeSessionsQuery(userId: string): ListQuery {
  return {
    from: 'device_sessions',
    columns: 'to_jsonb(device_sessions) as session',
    where: { sql: 'device_sessions.user_id = ? and device_sessions.is_active', params: [userId] },
    ordering: {
      name: 'devices',
      keys: [
        { sql: 'device_sessions.last_activity', type: 'timestamptz', direction: 'desc' },
        { sql: 'device_sessions.id', type: 'uuid', direction: 'asc' },
      ],
    },
  };
}

const toSessions = (em: EntityManager, rows: SessionRow[]) => rows.map((row) => em.map(DeviceSession, row.session));

/** Every active device session of a user: one statement. The caller checks who may read them. */
export async function activeSessions(em: EntityManager, userId: string): Promise<DeviceSession[]> {
  return toSessions(em, await findRows<SessionRow>(em, activeSessionsQuery(userId)));
}

/** The same as a cursor connection: two statements. */
export async function activeSessionConnection(
  em: EntityManager,
  userId: string,
  page: ConnectionInput,
): Promise<Connection<DeviceSession>> {
  const connection = await findConnection<SessionRow>(em, activeSessionsQuery(userId), page);
  return mapConnection(connection, (rows) => toSessions(em, rows));
}
