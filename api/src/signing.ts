import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 over a purpose and the values a URL or cookie binds, so a signature made for one
 * purpose can never be replayed as another and no bound value can change without breaking it.
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
