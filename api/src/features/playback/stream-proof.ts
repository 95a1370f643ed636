import type { Ctx } from '../../context.js';
import { signParts, verifyParts } from '../../signing.js';
import type { SessionFacts } from './access-facts.js';
import { streamRefused, type Presenter } from './stream-access.js';

/**
 * The proof a whole-file or seek byte request carries besides its URL, so that a copied URL (from
 * history, a log, a shared link) is worth nothing on its own: an HttpOnly, SameSite=Strict cookie
 * (Secure over TLS), scoped to the stream paths, holding an HMAC of the device session and its
 * start. It is set when the session opens a stream or asks for a seek URL (REST and GraphQL alike)
 * and cleared at logout; a same-origin audio element sends it by itself. A request that carries the
 * session's bearer token and device id instead (checked by authenticateRequest) needs no cookie.
 */
const COOKIE = 'stream_proof';
const PATH = '/api/v1/drm/';
const PURPOSE = 'stream-proof:v1';

/** Proofs already verified, per app, each with the session it names: a player sends one with every range. */
const verified = new WeakMap<object, Map<string, string>>();
const MAX_VERIFIED = 10_000;

/** verifyParts for a proof, remembered: a proof seen valid once is one map lookup after that. */
function isProofOf(ctx: Ctx, given: string | null | undefined, session: SessionFacts): boolean {
  if (!given) return false;
  const parts = [session.id, session.startedAt.getTime()];
  const expected = parts.join(':');
  let seen = verified.get(ctx.deps);
  if (!seen) verified.set(ctx.deps, (seen = new Map()));
  if (seen.get(given) === expected) return true;
  if (!verifyParts(ctx.deps.config.secret, PURPOSE, parts, given)) return false;
  if (seen.size >= MAX_VERIFIED) seen.delete(seen.keys().next().value as string);
  seen.set(given, expected);
  return true;
}

/** Gives the caller's browser the proof for its device session (a cookie for the browser's lifetime). */
export function grantStreamProof(ctx: Ctx, session: { id: string; createdAt: Date }): void {
  ctx.cookies?.set(COOKIE, signParts(ctx.deps.config.secret, PURPOSE, [session.id, session.createdAt.getTime()]), {
    path: PATH,
  });
}

export function clearStreamProof(ctx: Ctx): void {
  ctx.cookies?.clear(COOKIE, { path: PATH });
}

/**
 * Refuses a byte request that proves neither by a bearer token (authenticateRequest has already checked
 * it names this session) nor by the cookie that it comes from the device session the URL names.
 */
export function assertStreamProof(ctx: Ctx, presenter: Presenter, session: SessionFacts): void {
  if (presenter.token) return;
  if (!isProofOf(ctx, ctx.cookies?.get(COOKIE), session)) throw streamRefused();
}
