import type { Ctx } from '../../context.js';
import { signParts, verifyParts } from '../../signing.js';

/**
 * The proof that a device once signed in to an account (OWASP's "device cookie"): set at every
 * successful sign-in, an HttpOnly cookie holding an HMAC of the account, the device id and the
 * time it was issued, made with the server's secret. The device id alone (X-Device-ID, the login's
 * deviceData) is no secret; an attacker who knows it still cannot make this cookie, so their
 * wrong passwords never lock a device that holds it (login-lockout.ts).
 */
const PURPOSE = 'known-device:v1';
const NAME_PURPOSE = 'known-device-name:v1';
/** A device unused for this long is unknown again. */
const KNOWN_DEVICE_MS = 180 * 24 * 3600_000;
/** Sign-in is at /graphql and /api/v1/auth/login: the one path both lie under. */
const COOKIE_PATH = '/';

/** One cookie per account, so accounts sharing a browser keep theirs; the name does not reveal the account. */
function cookieName(secret: string, userId: string): string {
  return `kd_${signParts(secret, NAME_PURPOSE, [userId]).slice(0, 16)}`;
}

/** Marks the requesting device as known to the account (renewing the proof's lifetime). */
export function rememberDevice(ctx: Ctx, userId: string, deviceId: string): void {
  const { secret } = ctx.deps.config;
  const issuedAt = Date.now();
  ctx.cookies?.set(
    cookieName(secret, userId),
    `${issuedAt}.${signParts(secret, PURPOSE, [userId, deviceId, issuedAt])}`,
    {
      path: COOKIE_PATH,
      maxAgeMs: KNOWN_DEVICE_MS,
    },
  );
}

/** Whether the request proves that this device has signed in to the account before. */
export function isKnownDevice(ctx: Ctx, userId: string, deviceId: string, now = Date.now()): boolean {
  const { secret } = ctx.deps.config;
  const value = ctx.cookies?.get(cookieName(secret, userId));
  const match = value ? /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!match) return false;
  const issuedAt = Number(match[1]);
  if (issuedAt > now || now - issuedAt > KNOWN_DEVICE_MS) return false;
  return verifyParts(secret, PURPOSE, [userId, deviceId, issuedAt], match[2]);
}
