import { registerEnumType } from 'type-graphql';
import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';

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

interface ScopeInfo {
  /** What the scope allows. */
  allows: string;
  /** Only an administrator's key may have it: its operations are administrators'. */
  adminOnly: boolean;
}

/** THE facts about each scope: the schema, key creation and the web form all read them from here. */
export const scopeInfo: Record<ApiKeyScope, ScopeInfo> = {
  [ApiKeyScope.LIBRARY_READ]: {
    allows: 'Read the library, files, chapters, checkpoints and listening progress the user may see.',
    adminOnly: false,
  },
  [ApiKeyScope.FILES_WRITE]: {
    allows: 'Upload, change and delete files and their chapters.',
    adminOnly: true,
  },
  [ApiKeyScope.USERS_READ]: { allows: 'Read accounts and their device sessions.', adminOnly: true },
  [ApiKeyScope.USERS_WRITE]: {
    allows: 'Create, change, unlock and delete accounts, end their sessions.',
    adminOnly: true,
  },
  [ApiKeyScope.ACCESS_WRITE]: { allows: 'Read, grant and revoke access to files.', adminOnly: true },
  [ApiKeyScope.AUDIT_READ]: { allows: 'Read the security audit log.', adminOnly: true },
  [ApiKeyScope.STREAM]: {
    allows:
      "Fetch the audio of the files the user may see, whole or by byte range, with the key in the Authorization header (GET /api/v1/files/{id}/audio); metered by rip detection like a listener. The player's stream sessions, seek URLs and chapters stay a signed-in device's.",
    adminOnly: false,
  },
};

/** A scope as the schema describes it. */
export const scopeDescription = (scope: ApiKeyScope): string =>
  `${scopeInfo[scope].adminOnly ? 'Administrators: ' : ''}${scopeInfo[scope].allows}`;

registerEnumType(ApiKeyScope, {
  name: 'ApiKeyScope',
  description: 'What an API key may be used for. A key acts with at most the rights of its user.',
  valuesConfig: Object.fromEntries(
    Object.entries(ApiKeyScope).map(([key, value]) => [key, { description: scopeDescription(value) }]),
  ),
});

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
