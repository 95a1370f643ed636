import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

/**
 * argon2id with one lane: RFC 9106's memory and passes (64 MiB, 3), computed on one thread. The
 * library's default of 4 lanes runs 4 threads per hash, so a burst of logins (4 on the thread pool,
 * 16 threads) left the event loop waiting for a core: 84 ms stalls seen at 16 concurrent logins.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 1 } as const;

/**
 * The cost new hashes are made with and stored ones are held to: OPTIONS, except in the API test
 * tier, whose setup file lowers it (see useTestHashCost).
 */
let options: typeof OPTIONS | (Omit<typeof OPTIONS, 'memoryCost' | 'timeCost'> & TestHashCost) = OPTIONS;

export interface TestHashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * Tests only: argon2id at `cost` instead of RFC 9106's (null: back to it). The API tier's setup
 * file (api/src/test/setup.ts) calls it, so its hundreds of sign-ins do not spend 64 MiB and three
 * passes each; the test of the hashing itself sets it back. Nothing the server runs calls it.
 */
export function useTestHashCost(cost: TestHashCost | null): void {
  options = cost ? { ...OPTIONS, ...cost } : OPTIONS;
}

/** At most one hash per core but one, so the event loop (and the embedded database) keep a core. */
const oneCoreFree = pLimit(Math.max(1, availableParallelism() - 1));

/** The cost hashes are made with now. */
export function hashCost(): TestHashCost {
  return { memoryCost: options.memoryCost, timeCost: options.timeCost };
}

export function hashPassword(password: string): Promise<string> {
  return oneCoreFree(() => argon2.hash(password, options));
}

/** False for a wrong password and for a malformed stored hash alike. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return oneCoreFree(() => argon2.verify(hash, password)).catch(() => false);
}

/** A hash made with other parameters (an older default): replace it after a successful sign-in. */
export function needsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, options);
  } catch {
    return false;
  }
}
