import { ApiKeyScope, type ScopeRequirement } from './api-key-scopes.js';

const {
  LIBRARY_READ: libraryRead,
  FILES_WRITE: filesWrite,
  USERS_READ: usersRead,
  USERS_WRITE: usersWrite,
  ACCESS_WRITE: accessWrite,
  AUDIT_READ: auditRead,
  STREAM: stream,
} = ApiKeyScope;

/**
 * What each GraphQL root field asks of an API key, by schema coordinate, plus the few object
 * fields that reveal more than the field that reached them. A root field missing here is refused
 * to keys (a test fails on any), so a new operation is closed to keys until someone decides.
 */
export const graphqlScopes: Record<string, ScopeRequirement> = {
  'Query.me': [],
  'Query.audioFiles': [libraryRead],
  'Query.audioFilesConnection': [libraryRead],
  'Query.audioFile': [libraryRead],
  'Query.chapters': [libraryRead],
  'Query.chapterStatus': [libraryRead],
  'Query.checkpoints': [libraryRead],
  'Query.continueListening': [libraryRead],
  'Query.drmStatus': [libraryRead],
  'Query.adminFiles': [libraryRead],
  'Query.adminFilesConnection': [libraryRead],
  'Query.adminFile': [libraryRead],
  'Query.dashboardStats': [libraryRead, usersRead],
  'Query.myUploadSessions': [filesWrite],
  'Query.uploadSession': [filesWrite],
  'Query.adminUsers': [usersRead],
  'Query.adminUsersConnection': [usersRead],
  'Query.adminUser': [usersRead],
  'Query.userCount': [usersRead],
  'Query.userSessions': [usersRead],
  'Query.userSessionsConnection': [usersRead],
  'Query.fileAccessList': [accessWrite],
  'Query.fileAccessConnection': [accessWrite],
  'Query.grantCandidates': [accessWrite],
  'Query.auditLog': [auditRead],
  'Query.auditLogConnection': [auditRead],
  'Query.myDevices': 'deviceOnly',
  'Query.myDevicesConnection': 'deviceOnly',
  'Query.apiKeys': 'deviceOnly',
  'Query.apiKeyScopes': 'deviceOnly',
  'AudioFile.fileAccesses': [accessWrite],
  'DashboardStats.ripAlerts': [auditRead],
  'User.ripSuspectedAt': [auditRead],

  'Mutation.createChapters': [filesWrite],
  'Mutation.loadSampleChapters': [filesWrite],
  'Mutation.updateChapter': [filesWrite],
  'Mutation.deleteChapter': [filesWrite],
  'Mutation.finalizeChapters': [filesWrite],
  'Mutation.updateFile': [filesWrite],
  'Mutation.deleteFile': [filesWrite],
  'Mutation.initUpload': [filesWrite],
  'Mutation.finalizeUpload': [filesWrite],
  'Mutation.cancelUpload': [filesWrite],
  'Mutation.createUser': [usersWrite],
  'Mutation.updateUser': [usersWrite],
  'Mutation.deleteUser': [usersWrite],
  'Mutation.unlockUser': [usersWrite],
  'Mutation.terminateUserSession': [usersWrite],
  'Mutation.grantAccess': [accessWrite],
  'Mutation.revokeAccess': [accessWrite],
  // Stream credentials are bound to a person's device session; keys stream through GET /files/:id/audio.
  'Mutation.createStreamSession': 'deviceOnly',
  'Mutation.createSignedUrl': 'deviceOnly',
  'Mutation.chapterStreamUrl': 'deviceOnly',
  'Mutation.login': 'deviceOnly',
  'Mutation.register': 'deviceOnly',
  'Mutation.logout': 'deviceOnly',
  'Mutation.updateMyDetails': 'deviceOnly',
  'Mutation.deactivateDevice': 'deviceOnly',
  'Mutation.deactivateOtherDevices': 'deviceOnly',
  'Mutation.createCheckpoint': 'deviceOnly',
  'Mutation.saveProgress': 'deviceOnly',
  'Mutation.deleteCheckpoint': 'deviceOnly',
  'Mutation.createApiKey': 'deviceOnly',
  'Mutation.revokeApiKey': 'deviceOnly',

  'Subscription.chapterEvents': [libraryRead],
  'Subscription.securityEvents': 'deviceOnly',
  'Subscription.ripAlerts': [auditRead],
};

export interface RestScope {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An Express route path under /api/v1; HEAD is checked as GET. */
  path: string;
  scopes: ScopeRequirement;
}

const rest = (method: RestScope['method'], path: string, scopes: ScopeRequirement): RestScope => ({
  method,
  path,
  scopes,
});

/** The same for every REST route, first match wins (specific paths before their `:id` neighbours). */
export const restScopes: RestScope[] = [
  rest('GET', '/openapi.json', []),
  rest('GET', '/auth/me', []),
  rest('POST', '/auth/login', 'deviceOnly'),
  rest('POST', '/auth/register', 'deviceOnly'),
  rest('POST', '/auth/logout', 'deviceOnly'),
  rest('PUT', '/auth/updatedetails', 'deviceOnly'),
  rest('GET', '/devices', 'deviceOnly'),
  rest('DELETE', '/devices/others', 'deviceOnly'),
  rest('DELETE', '/devices/:deviceId', 'deviceOnly'),
  rest('GET', '/admin/api-keys', 'deviceOnly'),
  rest('POST', '/admin/api-keys', 'deviceOnly'),
  rest('DELETE', '/admin/api-keys/:id', 'deviceOnly'),

  rest('GET', '/files', [libraryRead]),
  rest('GET', '/files/cover/:id', [libraryRead]),
  rest('GET', '/files/:id', [libraryRead]),
  rest('GET', '/files/:id/chapters/status', [libraryRead]),
  rest('GET', '/files/:id/chapters', [libraryRead]),
  rest('GET', '/checkpoints/file/:fileId', [libraryRead]),
  rest('POST', '/checkpoints', 'deviceOnly'),
  rest('GET', '/progress', [libraryRead]),
  rest('GET', '/progress/:fileId', [libraryRead]),
  rest('PUT', '/progress/:fileId', 'deviceOnly'),
  rest('DELETE', '/checkpoints/:id', 'deviceOnly'),
  rest('GET', '/drm/status/:fileId', [libraryRead]),
  rest('GET', '/admin/files/stats', [libraryRead, usersRead]),
  rest('GET', '/admin/files', [libraryRead]),
  rest('GET', '/admin/files/:id', [libraryRead]),

  rest('PUT', '/admin/files/:id', [filesWrite]),
  rest('DELETE', '/admin/files/:id', [filesWrite]),
  rest('POST', '/files', [filesWrite]),
  rest('POST', '/audio/upload/init', [filesWrite]),
  rest('POST', '/audio/upload/chunk', [filesWrite]),
  rest('GET', '/audio/upload/status/:uploadId', [filesWrite]),
  rest('POST', '/audio/upload/finalize/:uploadId', [filesWrite]),
  rest('DELETE', '/audio/upload/cancel/:uploadId', [filesWrite]),
  rest('POST', '/files/:id/chapters', [filesWrite]),
  rest('POST', '/files/:id/chapters/sample', [filesWrite]),
  rest('POST', '/files/:id/chapters/finalize', [filesWrite]),
  rest('PUT', '/files/:id/chapters/:chapterId', [filesWrite]),
  rest('DELETE', '/files/:id/chapters/:chapterId', [filesWrite]),

  rest('GET', '/admin/users/count', [usersRead]),
  rest('GET', '/admin/users/with-sessions', [usersRead]),
  rest('GET', '/admin/users/:id', [usersRead]),
  rest('GET', '/admin/users/:id/sessions', [usersRead]),
  rest('POST', '/admin/users', [usersWrite]),
  rest('PUT', '/admin/users/:id', [usersWrite]),
  rest('DELETE', '/admin/users/:id', [usersWrite]),
  rest('DELETE', '/admin/users/:id/sessions/:sessionId', [usersWrite]),
  rest('PATCH', '/admin/users/:id/unlock', [usersWrite]),

  rest('GET', '/admin/file-access/file/:fileId', [accessWrite]),
  rest('POST', '/admin/file-access', [accessWrite]),
  rest('DELETE', '/admin/file-access/:id', [accessWrite]),

  // An API key's own audio route: the key in the Authorization header is its only credential.
  rest('GET', '/files/:id/audio', [stream]),
  // Stream credentials are bound to a person's device session: a key streams only through the route above.
  rest('POST', '/drm/session/:fileId', 'deviceOnly'),
  rest('POST', '/drm/signed-url/:fileId', 'deviceOnly'),
  rest('GET', '/drm/stream/:token', 'deviceOnly'),
  rest('GET', '/drm/signed/:fileId', 'deviceOnly'),
  rest('POST', '/files/:id/chapters/:chapterId/stream-url', 'deviceOnly'),
  rest('GET', '/chapters/:chapterId/playlist.m3u8', 'deviceOnly'),
  rest('GET', '/chapters/:chapterId/key', 'deviceOnly'),
  rest('GET', '/chapters/:chapterId/segments/:token/:segment', 'deviceOnly'),
];
