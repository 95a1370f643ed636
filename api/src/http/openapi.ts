import { Router } from 'express';

/**
 * The OpenAPI 3.1 description of REST /api/v1, written by hand from the routes. A test checks
 * that every route the router serves is described here.
 */

type Access = 'public' | 'user' | 'admin' | 'token';
type Schema = Record<string, unknown>;

interface RouteDoc {
  summary: string;
  access: Access;
  body?: Schema;
  multipart?: Schema;
  /** The `data` of a success body. */
  data?: Schema;
  /** Fields beside `data` at the top level. */
  extra?: Schema;
  status?: number;
  /** Responses that are bytes rather than JSON. */
  bytes?: string;
  tags: string;
}

const str = { type: 'string' };
const num = { type: 'number' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const dateTime = { type: 'string', format: 'date-time' };
const uuid = { type: 'string', format: 'uuid' };
const nullable = (s: Schema) => ({ anyOf: [s, { type: 'null' }] });
const obj = (properties: Record<string, Schema>, required: string[] = []) => ({ type: 'object', properties, required });
const list = (items: Schema) => ({ type: 'array', items });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const paging = { search: str, offset: int, limit: int };

const apiKeyScopes = ['library:read', 'files:write', 'users:read', 'users:write', 'access:write', 'audit:read', 'stream'];

const schemas: Record<string, Schema> = {
  ApiKey: obj({
    id: uuid,
    name: str,
    prefix: str,
    scopes: list({ enum: apiKeyScopes }),
    userId: uuid,
    userEmail: str,
    status: { enum: ['active', 'expired', 'revoked'] },
    rateLimitPerMinute: int,
    createdAt: dateTime,
    expiresAt: nullable(dateTime),
    revokedAt: nullable(dateTime),
    lastUsedAt: nullable(dateTime),
    lastUsedIp: nullable(str),
  }),
  User: obj({
    id: uuid,
    name: str,
    email: str,
    role: { enum: ['user', 'admin'] },
    isAdmin: bool,
    isLocked: bool,
    lockUntil: nullable(dateTime),
    avatarUrl: nullable(str),
    createdAt: dateTime,
    sessionCount: int,
    hasMultipleSessions: bool,
  }),
  DeviceSession: obj({
    id: uuid,
    deviceId: str,
    deviceName: str,
    deviceType: { enum: ['mobile', 'tablet', 'other'] },
    ipAddress: nullable(str),
    lastActivity: dateTime,
    createdAt: dateTime,
    isCurrent: bool,
  }),
  Chapter: obj({
    id: uuid,
    label: str,
    startTime: num,
    endTime: nullable(num),
    order: int,
    status: { enum: ['pending', 'ready', 'failed'] },
    plainSize: nullable(num),
    encryptedSize: nullable(num),
    finalizedAt: nullable(dateTime),
  }),
  AudioFile: obj({
    id: uuid,
    title: str,
    description: nullable(str),
    filename: str,
    size: { type: 'number', description: 'Bytes.' },
    duration: { type: 'number', description: 'Seconds.' },
    mimeType: str,
    isPublic: bool,
    createdAt: dateTime,
    coverImagePath: nullable({
      type: 'string',
      description: 'GET this URL (with the bearer token) for a file-stored cover.',
    }),
    coverImageBase64: nullable({
      type: 'string',
      description: 'A data: URL for an inline cover, on a single file only (null in lists: use coverUrl).',
    }),
    coverUrl: nullable({
      type: 'string',
      description: 'GET this URL (with the bearer token) for the cover, whichever the storage; null without one.',
    }),
    coverThumbnailUrl: nullable({ type: 'string', description: 'As coverUrl, at most 512 px on its long side.' }),
    chapters: list(ref('Chapter')),
  }),
  FileAccess: obj({
    id: uuid,
    user: obj({ id: uuid, name: str, email: str }),
    canView: bool,
    grantedAt: dateTime,
    expiresAt: nullable(dateTime),
    status: { enum: ['Active', 'Expired', 'Revoked'] },
  }),
  Checkpoint: obj({
    id: uuid,
    fileId: uuid,
    userId: uuid,
    timestamp: int,
    name: str,
    description: nullable(str),
    createdAt: dateTime,
  }),
  ListeningProgress: obj({ fileId: uuid, position: num, finished: bool, updatedAt: dateTime }),
  DashboardStats: obj({
    userCount: int,
    fileCount: int,
    publicFiles: int,
    privateFiles: int,
    totalDuration: num,
    totalSize: num,
    recentUploads: list(obj({ id: uuid, title: str, filename: str, duration: num, createdAt: dateTime })),
  }),
  Error: obj({ success: { const: false }, message: str, error: obj({ code: str, message: str }) }, [
    'success',
    'message',
    'error',
  ]),
};

const deviceData = obj({
  deviceId: str,
  deviceFingerprint: str,
  deviceName: str,
  timezone: str,
  language: str,
  platform: str,
  cookieEnabled: bool,
  doNotTrack: str,
});
const fileForm = obj({
  audio: { type: 'string', format: 'binary' },
  title: str,
  description: str,
  isPublic: bool,
  cover: { type: 'string', format: 'binary' },
  coverStorageType: { enum: ['file', 'base64'] },
});

/** What login and register answer: signed in, or awaiting the device approval. */
const LOGIN_ANSWER = {
  success: bool,
  message: str,
  requiresDeviceApproval: bool,
  token: nullable(str),
  user: nullable(ref('User')),
  deviceSession: nullable(ref('DeviceSession')),
  warnings: list(obj({ type: str, message: str })),
};

const routes: Record<string, RouteDoc> = {
  'POST /auth/login': {
    tags: 'auth',
    access: 'public',
    summary: 'Sign in from a device; a new device first answers requiresDeviceApproval.',
    body: obj({ email: str, password: str, deviceApproved: bool, deviceData }, ['email', 'password', 'deviceData']),
    extra: LOGIN_ANSWER,
  },
  'POST /auth/register': {
    tags: 'auth',
    access: 'public',
    summary:
      'Create an account and sign in on this device: first answers requiresDeviceApproval (200, nothing created); repeated with deviceApproved: true it creates the account (201).',
    body: obj({ name: str, email: str, password: str, deviceApproved: bool, deviceData }, ['name', 'email', 'password', 'deviceData']),
    extra: LOGIN_ANSWER,
    status: 201,
  },
  'POST /auth/logout': { tags: 'auth', access: 'user', summary: 'End the session on this device.' },
  'GET /auth/me': { tags: 'auth', access: 'user', summary: 'The signed-in user.', data: ref('User') },
  'PUT /auth/updatedetails': {
    tags: 'auth',
    access: 'user',
    summary: 'Change your name and email.',
    body: obj({ name: str, email: str }),
    data: ref('User'),
  },
  'GET /devices': {
    tags: 'devices',
    access: 'user',
    summary: 'Your active devices.',
    data: list(ref('DeviceSession')),
  },
  'DELETE /devices/others': {
    tags: 'devices',
    access: 'user',
    summary: 'Sign out every other device.',
    extra: { deactivatedCount: int },
  },
  'DELETE /devices/{deviceId}': { tags: 'devices', access: 'user', summary: 'Sign out one of your other devices.' },

  'GET /files': {
    tags: 'library',
    access: 'user',
    summary:
      'The files you may see. Query: search (title or description), sort (recently_added, the default; title; duration; recently_played), offset, limit.',
    data: list(ref('AudioFile')),
    extra: { total: int },
  },
  'POST /files': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Upload an audio file in one request.',
    multipart: fileForm,
    data: ref('AudioFile'),
    status: 201,
  },
  'GET /files/{id}': {
    tags: 'library',
    access: 'user',
    summary: 'One file you may see, with its chapters.',
    data: ref('AudioFile'),
  },
  'GET /files/cover/{id}': {
    tags: 'library',
    access: 'user',
    summary:
      'The cover image of a file you may see; `?size=thumbnail` for a copy at most 512 px on its long side. Private, revalidated by ETag.',
    bytes: 'image/*',
  },
  'GET /files/{id}/chapters': {
    tags: 'chapters',
    access: 'user',
    summary: "A file's chapters in order.",
    data: list(ref('Chapter')),
  },
  'GET /files/{id}/chapters/status': {
    tags: 'chapters',
    access: 'user',
    summary: 'Chapter counts by status.',
    data: obj({ summary: obj({ pending: int, ready: int, failed: int }) }),
  },
  'POST /files/{id}/chapters': {
    tags: 'chapters',
    access: 'admin',
    summary: 'Add pending chapters.',
    body: obj({ chapters: list(obj({ label: str, startTime: num, endTime: nullable(num), order: int })) }),
    data: list(ref('Chapter')),
    status: 201,
  },
  'POST /files/{id}/chapters/sample': {
    tags: 'chapters',
    access: 'admin',
    summary: 'Add a sample set of chapters.',
    data: list(ref('Chapter')),
    extra: { chapters: list(ref('Chapter')) },
    status: 201,
  },
  'POST /files/{id}/chapters/finalize': {
    tags: 'chapters',
    access: 'admin',
    summary: 'Cut, encode and encrypt every pending chapter.',
    body: obj({ storageType: { enum: ['database', 'filesystem'] } }),
    data: obj({
      finalizedChapters: list(ref('Chapter')),
      errors: list(obj({})),
      summary: obj({ finalized: int, failed: int }),
    }),
  },
  'PUT /files/{id}/chapters/{chapterId}': {
    tags: 'chapters',
    access: 'admin',
    summary: 'Change a chapter.',
    body: obj({ label: str, startTime: num, endTime: nullable(num) }),
    data: ref('Chapter'),
  },
  'DELETE /files/{id}/chapters/{chapterId}': {
    tags: 'chapters',
    access: 'admin',
    summary: 'Delete a chapter with its key and segments.',
  },
  'POST /files/{id}/chapters/{chapterId}/stream-url': {
    tags: 'chapters',
    access: 'user',
    summary: 'A signed HLS playlist URL for a ready chapter.',
    body: obj({ expiresIn: int }),
    data: obj({ streamUrl: str }),
    extra: { streamUrl: str },
  },
  'GET /chapters/{chapterId}/playlist.m3u8': {
    tags: 'chapters',
    access: 'token',
    summary: 'The AES-128 HLS playlist of a chapter (signed URL).',
    bytes: 'application/vnd.apple.mpegurl',
  },
  'GET /chapters/{chapterId}/key': {
    tags: 'chapters',
    access: 'token',
    summary: "A chapter's key, for a signed-in, permitted session only.",
    bytes: 'application/octet-stream',
  },
  'GET /chapters/{chapterId}/segments/{token}/{segment}': {
    tags: 'chapters',
    access: 'token',
    summary: 'One encrypted segment; immutable.',
    bytes: 'video/mp2t',
  },

  'GET /drm/status/{fileId}': {
    tags: 'drm',
    access: 'user',
    summary: 'Whether you may play a file and how it is delivered.',
    data: obj({}),
  },
  'POST /drm/session/{fileId}': {
    tags: 'drm',
    access: 'user',
    summary: 'Open a stream session.',
    data: obj({ sessionToken: str, duration: num }),
  },
  'GET /drm/stream/{token}': {
    tags: 'drm',
    access: 'token',
    summary: 'The audio of a stream session; honours Range.',
    bytes: 'audio/*',
  },
  'HEAD /drm/stream/{token}': {
    tags: 'drm',
    access: 'token',
    summary: 'Check that a stream session is still valid.',
    bytes: 'audio/*',
  },
  'POST /drm/signed-url/{fileId}': {
    tags: 'drm',
    access: 'user',
    summary: 'A signed URL for the audio from a start time, for seeking.',
    body: obj({ startTime: num, endTime: num, expiresIn: int }),
    data: obj({ signedUrl: str }),
  },
  'GET /drm/signed/{fileId}': {
    tags: 'drm',
    access: 'token',
    summary: 'The audio behind a signed URL.',
    bytes: 'audio/*',
  },
  'HEAD /drm/signed/{fileId}': { tags: 'drm', access: 'token', summary: 'Check a signed URL.', bytes: 'audio/*' },

  'GET /checkpoints/file/{fileId}': {
    tags: 'checkpoints',
    access: 'user',
    summary: 'Your checkpoints in a file you may see.',
    data: list(ref('Checkpoint')),
  },
  'POST /checkpoints': {
    tags: 'checkpoints',
    access: 'user',
    summary: 'Bookmark a whole second of a file (clamped to its duration).',
    body: obj({ fileId: uuid, timestamp: num, name: str, description: nullable(str) }, ['fileId', 'timestamp', 'name']),
    data: ref('Checkpoint'),
    status: 201,
  },
  'DELETE /checkpoints/{id}': { tags: 'checkpoints', access: 'user', summary: 'Delete one of your own checkpoints.' },

  'GET /progress': {
    tags: 'progress',
    access: 'user',
    summary: 'Continue listening: files you started and have not finished, most recently played first. Query: limit.',
    data: list({ allOf: [ref('AudioFile'), obj({ progress: ref('ListeningProgress') })] }),
  },
  'GET /progress/{fileId}': {
    tags: 'progress',
    access: 'user',
    summary: 'Your position in a file you may see; null when you have not played it.',
    data: nullable(ref('ListeningProgress')),
  },
  'PUT /progress/{fileId}': {
    tags: 'progress',
    access: 'user',
    summary: 'Store your position in a file you may see (at most 4 saves a second per device session).',
    body: obj({ position: num, finished: bool }, ['position']),
    data: ref('ListeningProgress'),
  },

  'POST /audio/upload/init': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Start a chunked upload.',
    body: obj({ fileName: str, fileSize: int, totalChunks: int, fileHash: str, mimeType: str }),
    extra: { uploadId: uuid },
  },
  'POST /audio/upload/chunk': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Send one chunk (headers name the upload id, chunk index, total chunks, file name and size).',
    multipart: obj({ chunk: { type: 'string', format: 'binary' } }),
  },
  'GET /audio/upload/status/{uploadId}': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Which chunks have arrived.',
    extra: { uploadedChunks: list(int) },
  },
  'POST /audio/upload/finalize/{uploadId}': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Assemble the chunks and create the file.',
    multipart: fileForm,
    data: ref('AudioFile'),
  },
  'DELETE /audio/upload/cancel/{uploadId}': {
    tags: 'uploads',
    access: 'admin',
    summary: 'Cancel an upload and remove its chunks.',
  },

  'GET /admin/users/count': {
    tags: 'admin',
    access: 'admin',
    summary: 'How many accounts exist.',
    data: obj({ count: int }),
    extra: { count: int },
  },
  'GET /admin/users/with-sessions': {
    tags: 'admin',
    access: 'admin',
    summary: 'Users with session counts. Query: search (name, email or role), offset, limit.',
    data: list(ref('User')),
    extra: { total: int },
  },
  'POST /admin/users': {
    tags: 'admin',
    access: 'admin',
    summary: 'Create an account with a role.',
    body: obj({ name: str, email: str, password: str, role: { enum: ['user', 'admin'] } }, [
      'name',
      'email',
      'password',
    ]),
    data: ref('User'),
    status: 201,
  },
  'GET /admin/users/{id}': { tags: 'admin', access: 'admin', summary: 'One user.', data: ref('User') },
  'PUT /admin/users/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: "Change a user's name, email, role or lock.",
    body: obj({ name: str, email: str, role: { enum: ['user', 'admin'] }, isLocked: bool }),
    data: ref('User'),
  },
  'DELETE /admin/users/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: 'Delete a user with their sessions, grants and checkpoints; administrators cannot be deleted.',
  },
  'PATCH /admin/users/{id}/unlock': {
    tags: 'admin',
    access: 'admin',
    summary: 'Lift the policy lock and the temporary lock.',
    data: ref('User'),
  },
  'GET /admin/users/{id}/sessions': {
    tags: 'admin',
    access: 'admin',
    summary: "A user's active sessions.",
    data: list(ref('DeviceSession')),
  },
  'DELETE /admin/users/{id}/sessions/{sessionId}': {
    tags: 'admin',
    access: 'admin',
    summary: "End one of a user's sessions.",
  },
  'GET /admin/files/stats': {
    tags: 'admin',
    access: 'admin',
    summary: 'Dashboard statistics.',
    data: ref('DashboardStats'),
  },
  'GET /admin/files': {
    tags: 'admin',
    access: 'admin',
    summary:
      'Every file. Query: search (title, filename or description), status (all, public, private), offset, limit.',
    data: list(ref('AudioFile')),
    extra: { total: int },
  },
  'GET /admin/files/{id}': { tags: 'admin', access: 'admin', summary: 'One file.', data: ref('AudioFile') },
  'PUT /admin/files/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: 'Change title, description, public flag and cover (JSON, or multipart with a cover of at most 5 MB).',
    multipart: obj({
      title: str,
      description: str,
      isPublic: bool,
      removeCover: bool,
      cover: { type: 'string', format: 'binary' },
      coverStorageType: { enum: ['file', 'base64'] },
    }),
    data: ref('AudioFile'),
  },
  'DELETE /admin/files/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: 'Delete a file with its audio, cover, chapters, segments, grants and checkpoints.',
  },
  'GET /admin/file-access/file/{fileId}': {
    tags: 'admin',
    access: 'admin',
    summary: "A file's grants and every user.",
    data: obj({
      file: { allOf: [ref('AudioFile'), obj({ fileAccesses: list(ref('FileAccess')) })] },
      allUsers: list(ref('User')),
    }),
  },
  'POST /admin/file-access': {
    tags: 'admin',
    access: 'admin',
    summary: 'Grant a user a file; CONFLICT when a live grant exists.',
    body: obj({ userId: uuid, fileId: uuid, expiresAt: nullable(dateTime) }, ['userId', 'fileId']),
    data: ref('FileAccess'),
    status: 201,
  },
  'DELETE /admin/file-access/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: "Revoke a grant; the user's players are told at once.",
    data: ref('FileAccess'),
  },
  'GET /admin/api-keys': {
    tags: 'admin',
    access: 'admin',
    summary: 'Every API key, newest first (never their secrets).',
    data: list(ref('ApiKey')),
  },
  'POST /admin/api-keys': {
    tags: 'admin',
    access: 'admin',
    summary: 'Create an API key for a user, from a signed-in device; `secret` is shown this once.',
    body: obj(
      { name: str, userId: uuid, scopes: list({ enum: apiKeyScopes }), expiresAt: nullable(dateTime), rateLimitPerMinute: nullable(int) },
      ['name', 'userId', 'scopes'],
    ),
    data: ref('ApiKey'),
    extra: { secret: str },
    status: 201,
  },
  'DELETE /admin/api-keys/{id}': {
    tags: 'admin',
    access: 'admin',
    summary: 'Revoke an API key: refused from its next request on.',
    data: ref('ApiKey'),
  },
  'GET /openapi.json': { tags: 'meta', access: 'public', summary: 'This document.', bytes: 'application/json' },
};

const errorResponse = { description: 'Failure', content: { 'application/json': { schema: ref('Error') } } };

function operation(method: string, path: string, doc: RouteDoc): Schema {
  const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: str,
  }));
  if (/^(GET \/files|GET \/admin\/files|GET \/admin\/users\/with-sessions)$/.test(`${method} ${path}`)) {
    for (const [name, schema] of Object.entries(paging))
      parameters.push({ name, in: 'query', required: false, schema: schema as typeof str });
  }
  const status = String(doc.status ?? 200);
  const success = doc.bytes
    ? { description: 'The bytes', content: { [doc.bytes]: {} } }
    : {
        description: 'Success',
        content: {
          'application/json': {
            schema: obj({ success: { const: true }, data: doc.data ?? {}, message: str, ...doc.extra }, ['success']),
          },
        },
      };
  return {
    tags: [doc.tags],
    summary: doc.summary,
    ...(doc.access === 'user' || doc.access === 'admin' ? { security: [{ bearer: [], deviceId: [] }] } : {}),
    ...(doc.access === 'admin' ? { description: 'Administrators only.' } : {}),
    ...(doc.access === 'token'
      ? { description: 'The signed token in the URL is the credential; it is re-checked at every fetch.' }
      : {}),
    parameters,
    ...(doc.body || doc.multipart
      ? {
          requestBody: {
            content: {
              ...(doc.body ? { 'application/json': { schema: doc.body } } : {}),
              ...(doc.multipart ? { 'multipart/form-data': { schema: doc.multipart } } : {}),
            },
          },
        }
      : {}),
    responses: { [status]: success, '4XX': errorResponse, '5XX': errorResponse },
  };
}

export function openApiDocument(): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const [key, doc] of Object.entries(routes)) {
    const [method, path] = key.split(' ');
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation(method, path, doc) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Protected audio library REST API',
      version: '1.0.0',
      description:
        'Success bodies are { success: true, data, message? }; failures are { success: false, message, error: { code, message } }. Send Authorization: Bearer {token} and X-Device-ID on every call. GraphQL at /graphql offers the same operations.',
    },
    servers: [{ url: '/api/v1' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        deviceId: { type: 'apiKey', in: 'header', name: 'X-Device-ID' },
      },
      schemas,
    },
    paths,
  };
}

/** GET /api/v1/openapi.json: public, it describes the API and holds no data. */
export function openApiRoutes(): Router {
  const router = Router();
  const document = openApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(document);
  });
  return router;
}
