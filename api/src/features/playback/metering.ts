import type { Ctx } from '../../context.js';
import type { ApiKeyCaller } from '../api-keys/api-key-caller.js';
import { AppError } from '../../errors.js';
import { isAdmin } from '../../caller-policy.js';
import type { ByteTap, Listener, MeteredCredential } from '../rip-detection/rip-meter.js';
import { offenceReporter } from '../rip-detection/rip-offence.js';
import type { ChapterFacts, FileFacts, SessionFacts, UserFacts } from './access-facts.js';

/*
 * Playback's one door to rip detection: every byte a listener is served (whole file, seek window,
 * API key audio, chapter key and segment) is metered through here, as playback's facts name it.
 * The meter, its ledger and what an offence does stay in rip-detection/.
 */

/** Counts a response's bytes as they are written (rip detection's meter). */
export type { ByteTap };

/** An IPv4 client seen through an IPv6 socket is the same client. */
function clientAddress(ip: string | null): string | null {
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** The metered side of a byte request: its credential and account, and where its offences go. */
function listener(ctx: Ctx, credential: MeteredCredential, user: Pick<UserFacts, 'id' | 'role'>): Listener {
  return {
    credential,
    userId: user.id,
    // An administrator's own sessions are metered but never acted on; a key is a service
    // credential that can leak, so a key is acted on whoever it acts for.
    exempt: credential.kind === 'session' && isAdmin(user),
    address: clientAddress(ctx.meta.ip),
    report: offenceReporter(ctx),
  };
}

/** A byte request made with a device session's stream credential. */
export function listenerFor(ctx: Ctx, facts: { session: SessionFacts; user: UserFacts }): Listener {
  const { session } = facts;
  return listener(ctx, { kind: 'session', id: session.id, start: session.startedAt.getTime() }, facts.user);
}

/**
 * A segment, which proves its session by its URL's token: counted for that session's account, and
 * as coming from no address, as segments may come from a cache or another network.
 */
function segmentListenerFor(ctx: Ctx, owner: Pick<Listener, 'credential' | 'userId' | 'exempt'>): Listener {
  return { ...owner, address: null, report: offenceReporter(ctx) };
}

/** A byte request made with an API key: metered on its account, its offences the key's own. */
export function apiKeyListenerFor(ctx: Ctx, caller: ApiKeyCaller): Listener {
  return listener(ctx, { kind: 'apiKey', id: caller.apiKey.id }, caller.user);
}

/** The rip meter's view of a response's bytes: whose they are and which file. */
export function meterFor(
  ctx: Ctx,
  listener: Listener,
  file: Pick<FileFacts, 'id' | 'duration'>,
  size: number,
): (fileOffset: number) => ByteTap {
  return (fileOffset) =>
    ctx.deps.ripMeter.fileResponse(listener, { id: file.id, size, duration: file.duration }, fileOffset);
}

/** Rip detection: a key counts for its account, and a throttled account gets one new key a window. */
export function meterKey(ctx: Ctx, facts: ChapterFacts, chapterId: string): void {
  const retryAfterSeconds = ctx.deps.ripMeter.key(listenerFor(ctx, facts), chapterId);
  if (retryAfterSeconds !== null) {
    throw new AppError('RATE_LIMITED', 'Chapter keys are being fetched too fast. Try again later.', {
      retryAfterSeconds,
    });
  }
}

/** Meters a chapter segment for the owner its token names; resolves to how long to hold it (ms). */
export function meterSegment(
  ctx: Ctx,
  owner: Pick<Listener, 'credential' | 'userId' | 'exempt'>,
  chapterId: string,
  index: number,
  seconds: number,
): number {
  return ctx.deps.ripMeter.segment(segmentListenerFor(ctx, owner), chapterId, index, seconds);
}
