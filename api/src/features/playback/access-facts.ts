import type { EntityManager } from '@mikro-orm/postgresql';
import type { SessionState } from '../auth/authenticate.js';
import type { ChapterStatus } from '../chapters/chapter.entity.js';
import type { UserRole } from '../users/user.entity.js';

/**
 * What a byte request re-checks, read in one statement: it runs for every range a player fetches,
 * and on the embedded database every statement waits for the one connection. Only facts are read
 * here; the rules stay where they are (sessionRefusal in authenticate.ts, stream-access.ts, and
 * visibility.ts for who sees a file).
 */

/** The device session a credential was issued to. */
export interface SessionFacts extends SessionState {
  id: string;
  deviceId: string;
  lastActivity: Date;
}

/** The account the credential was issued to. */
export interface UserFacts {
  id: string;
  role: UserRole;
  isLocked: boolean;
}

export interface FileFacts {
  id: string;
  isPublic: boolean;
  storagePath: string;
  /** Bytes stored, from the row (the file never changes once stored). */
  size: number;
  mimeType: string;
  duration: number;
}

export interface AccessFacts {
  session: SessionFacts;
  user: UserFacts;
  /** Null when the file (or the chapter naming it) does not exist. */
  file: FileFacts | null;
  /** The user's grant to the file, when they hold one (at most one per pair). */
  grant: { canView: boolean; expiresAt: Date | null } | null;
}

export interface StreamTokenFacts extends AccessFacts {
  file: FileFacts;
  expiresAt: Date;
  createdAt: Date;
}

export interface ChapterFacts extends AccessFacts {
  chapter: {
    id: string;
    status: ChapterStatus;
    /** The playlist text, read only when asked for. */
    playlist: string | null;
    hasPlaylist: boolean;
    /** The AES key, read only when asked for. */
    key: Buffer | null;
  } | null;
}

const FACTS = `ds.id as session_id, ds.device_id, ds.is_active, ds.user_id as session_user_id, ds.last_activity,
  ds.created_at as session_started_at,
  u.id as user_id, u.role, u.is_locked,
  f.id as file_id, f.is_public, f.storage_path, f.size, f.mime_type, f.duration,
  fa.can_view, fa.expires_at as grant_expires_at`;

/** The user's own grant to the file, if any: (user, file) is unique in file_access. */
const GRANT = 'left join file_access fa on fa.user_id = u.id and fa.file_id = f.id';

type Row = Record<string, unknown>;

const toDate = (value: unknown): Date | null => (value === null ? null : new Date(value as string | Date));

function accessFacts(row: Row): AccessFacts {
  return {
    session: {
      id: row.session_id as string,
      deviceId: row.device_id as string,
      isActive: row.is_active as boolean,
      userId: row.session_user_id as string,
      lastActivity: toDate(row.last_activity) as Date,
      startedAt: toDate(row.session_started_at) as Date,
    },
    user: { id: row.user_id as string, role: row.role as UserRole, isLocked: row.is_locked as boolean },
    file:
      row.file_id === null
        ? null
        : {
            id: row.file_id as string,
            isPublic: row.is_public as boolean,
            storagePath: row.storage_path as string,
            size: Number(row.size),
            mimeType: row.mime_type as string,
            duration: Number(row.duration),
          },
    grant: row.can_view === null ? null : { canView: row.can_view as boolean, expiresAt: toDate(row.grant_expires_at) },
  };
}

/** A stream session by its token's hash, with the device session, account and file it was bound to. */
export async function streamTokenFacts(em: EntityManager, tokenHash: string): Promise<StreamTokenFacts | null> {
  const [row] = await em.execute<Row[]>(
    `select ${FACTS}, ss.expires_at, ss.created_at as stream_created_at
     from stream_sessions ss
     join device_sessions ds on ds.id = ss.device_session_id
     join users u on u.id = ss.user_id
     join audio_files f on f.id = ss.file_id
     ${GRANT}
     where ss.token_hash = ?`,
    [tokenHash],
  );
  if (!row) return null;
  const facts = accessFacts(row);
  return {
    ...facts,
    file: facts.file as FileFacts,
    expiresAt: toDate(row.expires_at) as Date,
    createdAt: toDate(row.stream_created_at) as Date,
  };
}

/** A device session (null when there is none) with its account, a file and the account's grant to it. */
export async function sessionFileFacts(
  em: EntityManager,
  sessionId: string,
  fileId: string,
): Promise<AccessFacts | null> {
  const [row] = await em.execute<Row[]>(
    `select ${FACTS}
     from device_sessions ds
     join users u on u.id = ds.user_id
     left join audio_files f on f.id = ?
     ${GRANT}
     where ds.id = ?`,
    [fileId, sessionId],
  );
  return row ? accessFacts(row) : null;
}

/** As sessionFileFacts, for a chapter's file, with the chapter and either its playlist or its key. */
export async function sessionChapterFacts(
  em: EntityManager,
  sessionId: string,
  chapterId: string,
  part: 'playlist' | 'key',
): Promise<ChapterFacts | null> {
  const [row] = await em.execute<Row[]>(
    `select ${FACTS}, c.id as chapter_id, c.status as chapter_status, c.playlist is not null as has_playlist,
       ${part === 'playlist' ? 'c.playlist' : 'null as playlist'}, ${part === 'key' ? 'k.key' : 'null as key'}
     from device_sessions ds
     join users u on u.id = ds.user_id
     left join chapters c on c.id = ?
     left join audio_files f on f.id = c.file_id
     ${GRANT}
     ${part === 'key' ? 'left join chapter_keys k on k.chapter_id = c.id' : ''}
     where ds.id = ?`,
    [chapterId, sessionId],
  );
  if (!row) return null;
  return {
    ...accessFacts(row),
    chapter:
      row.chapter_id === null
        ? null
        : {
            id: row.chapter_id as string,
            status: row.chapter_status as ChapterStatus,
            playlist: row.playlist as string | null,
            hasPlaylist: row.has_playlist as boolean,
            key: row.key === null ? null : Buffer.from(row.key as Uint8Array),
          },
  };
}
