import { z } from 'zod';
import { idSchema } from '../validation.js';

/** Longest lifetime a signed URL may ask for: the spec's 30 minutes. */
export const MAX_SIGNED_URL_MS = 30 * 60 * 1000;

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

/**
 * `?sid&st&exp&sig`: a URL signed for one device session (a chapter playlist or key, a backup
 * link), as the route that issued it writes it; clients use it as given.
 */
export function sessionSignedQuery(expiry = 'Expiry (ms since the epoch).') {
  return z.object({
    sid: idSchema.meta({ description: 'The device session the URL was issued to.' }),
    st: z.int().meta({ description: 'When that session began (ms since the epoch).' }),
    exp: z.int().meta({ description: expiry }),
    sig: z.string().meta({ description: 'The server signature of the above.' }),
  });
}
