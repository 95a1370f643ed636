import type { Caller } from './context.js';
import { AppError } from './errors.js';

/** What an API key may be used for; a key never does more than its user may. */
export enum ApiKeyScope {
  LIBRARY_READ = 'library:read',
  FILES_WRITE = 'files:write',
  USERS_READ = 'users:read',
  USERS_WRITE = 'users:write',
  ACCESS_WRITE = 'access:write',
  AUDIT_READ = 'audit:read',
  STREAM = 'stream',
}

/**
 * What an operation asks of an API key: the scopes it needs (all of them; none for reading who
 * the key acts for), or `deviceOnly` for what only a person's signed-in device may do (sign-in,
 * device management, their own profile, managing API keys).
 */
export type ScopeRequirement = readonly ApiKeyScope[] | 'deviceOnly';

const refusedToKeys = () => new AppError('FORBIDDEN', 'API keys cannot do this: sign in on a device');

/**
 * The one scope check: device sessions pass (their rights are checked by the services, as for
 * every caller); an API key passes only with every scope the operation needs.
 */
export function assertScopes(caller: Caller | null, required: ScopeRequirement | undefined): void {
  if (!caller?.apiKey) return;
  // An operation nobody mapped is refused: a new field or route stays closed to keys until decided.
  if (required === undefined || required === 'deviceOnly') throw refusedToKeys();
  const missing = required.filter((scope) => !caller.apiKey.scopes.includes(scope));
  if (missing.length > 0) {
    throw new AppError('FORBIDDEN', `This API key lacks the scope ${missing.join(', ')}`, { missingScopes: missing });
  }
}
