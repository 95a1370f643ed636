import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

/**
 * argon2id with one lane: RFC 9106's memory and passes (64 MiB, 3), computed on one thread. The
 * library's default of 4 lanes runs 4 threads per hash, so a burst of logins (4 on the thread pool,
 * 16 threads) left the event loop waiting for a core: 84 ms stalls seen at 16 concurrent logins.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 1 } as const;

/** At most one hash per core but one, so the event loop (and the embedded database) keep a core. */
const oneCoreFree = pLimit(Math.max(1, availableParallelism() - 1));

export function hashPassword(password: string): Promise<string> {
  return oneCoreFree(() => argon2.hash(password, OPTIONS));
}

/** False for a wrong password and for a malformed stored hash alike. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return oneCoreFree(() => argon2.verify(hash, password)).catch(() => false);
}

/** A hash made with other parameters (an older default): replace it after a successful sign-in. */
export function needsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, OPTIONS);
  } catch {
    return false;
  }
}
