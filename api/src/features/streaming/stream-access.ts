import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { mayViewFile } from '../access/visibility.js';
import { authenticate, noteActivity } from '../auth/authenticate.js';
import { verifyAccessToken } from '../auth/tokens.js';
import type { AccessFacts, FileFacts } from './access-facts.js';

/** The one answer for a byte credential that no longer holds; the player re-initialises on 403. */
export const streamRefused = () => new AppError('FORBIDDEN', 'Stream session is no longer valid');

/** The other credentials a byte request came with: a player may add its headers to every request. */
export interface Presenter {
  /** The bearer token, if any. */
  token: string | null;
  deviceId: string | null;
}

/**
 * Re-checks, at the moment of a byte request, what a stream credential was issued for: the
 * account is unlocked, the device session still active and the file still visible (grant live).
 */
function assertStreamStillAllowed(facts: AccessFacts, file: FileFacts): void {
  const { session, user, grant } = facts;
  if (user.isLocked || !session.isActive || session.userId !== user.id) throw streamRefused();
  if (!mayViewFile(user, file, grant)) {
    throw new AppError('FORBIDDEN', 'Access denied. You do not have permission to access this file.');
  }
}

/**
 * assertStreamStillAllowed, then the device session's last activity brought up to date: while a
 * player plays, its byte requests may be the only calls the session makes.
 */
export async function allowStream(ctx: Ctx, facts: AccessFacts, file: FileFacts): Promise<void> {
  assertStreamStillAllowed(facts, file);
  await noteActivity(ctx.em, facts.session.id, facts.session.lastActivity);
}

/** Checks that the presenter is the device session a credential was issued to. */
export type SamePresenterCheck = (facts: AccessFacts) => Promise<void>;

/**
 * Runs a byte request's check with the presenter's bearer token authenticated no more than needed.
 * The check's one statement also reads the device session the token has to name: when it names
 * that session, active, unlocked and on its device, the token costs no query of its own. Any other
 * token goes through the shared authentication, before any refusal, so a bad token is answered as
 * on every other route, or as `onAuthFailure` maps it.
 */
export async function withPresenter<T>(
  ctx: Ctx,
  presenter: Presenter,
  check: (assertSamePresenter: SamePresenterCheck) => Promise<T>,
  onAuthFailure: (err: AppError) => AppError = (err) => err,
): Promise<T> {
  const authFailure = (err: unknown) =>
    err instanceof AppError && err.code === 'UNAUTHENTICATED' ? onAuthFailure(err) : err;
  let settled = presenter.token === null;
  const authenticatePresenter = async (): Promise<Caller | null> => {
    settled = true;
    try {
      return await authenticate(ctx.em, ctx.deps.config, presenter.token, presenter.deviceId);
    } catch (err) {
      throw authFailure(err);
    }
  };
  const claims =
    presenter.token === null
      ? null
      : await verifyAccessToken(ctx.deps.config.secret, presenter.token).catch((err: unknown) => {
          throw authFailure(err);
        });

  const assertSamePresenter: SamePresenterCheck = async ({ session, user }) => {
    if (claims) {
      const isThisSession =
        claims.sessionId === session.id &&
        claims.sessionStart === session.startedAt.getTime() &&
        claims.userId === session.userId &&
        session.userId === user.id &&
        session.isActive &&
        !user.isLocked &&
        presenter.deviceId === session.deviceId;
      const presented = isThisSession ? session.id : (await authenticatePresenter())?.session.id;
      settled = true;
      if (presented !== session.id) throw streamRefused();
    }
    if (presenter.deviceId && presenter.deviceId !== session.deviceId) throw streamRefused();
  };

  try {
    return await check(assertSamePresenter);
  } catch (err) {
    if (!settled) await authenticatePresenter();
    throw err;
  }
}
