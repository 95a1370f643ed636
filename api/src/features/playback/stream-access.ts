import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { noteActivity, sessionRefusal, type Credential } from '../auth/authenticate.js';
import type { AccessFacts, FileFacts } from './access-facts.js';
import { mayViewFile } from '../access/visibility.js';

/** The one answer for a byte credential that no longer holds; the player re-initialises on 403. */
export const streamRefused = () => new AppError('FORBIDDEN', 'Stream session is no longer valid');

/** The other credentials a byte request came with: a player may add its headers to every request. */
export type Presenter = Credential;

/**
 * How a route answers for a file that is missing or not visible to the session: as for an unknown
 * id of that route, so it reveals nothing. A message, for NOT_FOUND; or the route's own refusal.
 */
export type Missing = string | (() => AppError);

/**
 * Re-checks, at the moment of a byte request, what a stream credential was issued for: the device
 * session still holds it (sessionRefusal: active, unlocked, issued in this session, `sessionStart`),
 * the file exists and is still visible (grant live); then brings the session's last activity up to
 * date, as a player's byte requests may be the only calls the session makes. Resolves to the file.
 */
export async function allowStream(
  ctx: Ctx,
  facts: AccessFacts,
  sessionStart: number | null,
  missing: Missing = 'Audio file not found',
): Promise<FileFacts> {
  const refusal = streamRefusal(facts, sessionStart, missing);
  if (refusal) throw refusal;
  const { session } = facts;
  const file = facts.file as FileFacts; // streamRefusal refused a missing one
  // Facts may be cached (access-facts-cache.ts): the session's next requests see this write and skip theirs.
  session.lastActivity = (await noteActivity(() => ctx.em, session.id, session.lastActivity)) ?? session.lastActivity;
  return file;
}

/** allowStream's rule without its side effect: why the facts refuse the request, or null. */
export function streamRefusal(
  facts: AccessFacts,
  sessionStart: number | null,
  missing: Missing = 'Audio file not found',
): AppError | null {
  const { session, user, file, grant } = facts;
  if (sessionRefusal(session, user, sessionStart)) return streamRefused();
  // A file the session may not see (no live grant) is answered as a missing one.
  if (!file || !mayViewFile(user, file, grant)) {
    return typeof missing === 'string' ? new AppError('NOT_FOUND', missing) : missing();
  }
  return null;
}
