import { registerEnumType } from 'type-graphql';
import { ApiKeyScope } from '../../api-key-scopes.js';

// The feature's own vocabulary lives in the kernel, where route declarations and resolvers name it.
export { ApiKeyScope } from '../../api-key-scopes.js';

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
