import { createHmac, timingSafeEqual } from 'node:crypto';

/** Longest lifetime a signed URL may ask for: the spec's 30 minutes. */
export const MAX_SIGNED_URL_MS = 30 * 60 * 1000;

/**
 * HMAC-SHA256 over a purpose and the values a URL binds, so a signature made for one kind of URL
 * can never be replayed as another and no bound value can change without breaking it.
 */
export function signParts(secret: string, purpose: string, parts: readonly (string | number)[]): string {
  return createHmac('sha256', secret)
    .update([purpose, ...parts].join('\n'))
    .digest('base64url');
}

/** Constant-time comparison of a presented signature with the expected one. */
export function verifyParts(
  secret: string,
  purpose: string,
  parts: readonly (string | number)[],
  signature: unknown,
): boolean {
  return typeof signature === 'string' && sameSecret(signature, signParts(secret, purpose, parts));
}

/** Constant-time equality of a presented secret value with the expected one. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A query expiry (ms since epoch) that is a whole number still in the future. */
export function isLiveExpiry(value: unknown, now = Date.now()): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > now;
}

/** Reads one string query parameter; arrays and missing values are null. */
export function queryString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : null;
}

export function queryInteger(value: unknown): number | null {
  const text = queryString(value);
  if (text === null || !/^-?\d{1,16}$/.test(text)) return null;
  return Number(text);
}
