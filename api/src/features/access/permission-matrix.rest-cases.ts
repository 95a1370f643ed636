import { listsTheFileWhenVisible, type Case, type MatrixWorld } from './permission-matrix.rules.js';

/** A permission case for every REST route of the library and administration API. */
export const restCases = (w: MatrixWorld): Record<string, Case> => ({
  'GET /files': {
    rule: 'signedIn',
    run: (s) => w.rest('GET', '/files', undefined, s),
    check: listsTheFileWhenVisible(w),
  },
  'GET /files/:id': { rule: 'visibleFile', run: (s) => w.rest('GET', `/files/${w.fileId}`, undefined, s) },
  'GET /files/cover/:id': { rule: 'visibleFile', run: (s) => w.rest('GET', `/files/cover/${w.fileId}`, undefined, s) },
  'GET /checkpoints/file/:fileId': {
    rule: 'visibleFile',
    run: (s) => w.rest('GET', `/checkpoints/file/${w.fileId}`, undefined, s),
  },
  'POST /checkpoints': {
    rule: 'visibleFile',
    run: (s) => w.rest('POST', '/checkpoints', { fileId: w.fileId, timestamp: 2, name: 'm' }, s),
  },
  'DELETE /checkpoints/:id': {
    rule: 'owner',
    run: async (s) => w.rest('DELETE', `/checkpoints/${await w.fresh.checkpoint()}`, undefined, s),
  },
  'GET /drm/status/:fileId': {
    rule: 'visibleFile',
    run: (s) => w.rest('GET', `/drm/status/${w.fileId}`, undefined, s),
  },
  'POST /drm/session/:fileId': {
    rule: 'visibleFile',
    run: (s) => w.rest('POST', `/drm/session/${w.fileId}`, undefined, s),
  },
  'POST /drm/signed-url/:fileId': {
    rule: 'visibleFile',
    run: (s) => w.rest('POST', `/drm/signed-url/${w.fileId}`, { startTime: 0 }, s),
  },
  'GET /files/:id/chapters': {
    rule: 'visibleFile',
    run: (s) => w.rest('GET', `/files/${w.fileId}/chapters`, undefined, s),
  },
  'GET /files/:id/chapters/status': {
    rule: 'visibleFile',
    run: (s) => w.rest('GET', `/files/${w.fileId}/chapters/status`, undefined, s),
  },
  'GET /progress': { rule: 'signedIn', run: (s) => w.rest('GET', '/progress', undefined, s) },
  'GET /progress/:fileId': { rule: 'visibleFile', run: (s) => w.rest('GET', `/progress/${w.fileId}`, undefined, s) },
  'PUT /progress/:fileId': {
    rule: 'visibleFile',
    run: (s) => w.rest('PUT', `/progress/${w.fileId}`, { position: 4 }, s),
  },
  'GET /admin/users/count': { rule: 'admin', run: (s) => w.rest('GET', '/admin/users/count', undefined, s) },
  'GET /admin/files/stats': { rule: 'admin', run: (s) => w.rest('GET', '/admin/files/stats', undefined, s) },
  'GET /admin/users/with-sessions': {
    rule: 'admin',
    run: (s) => w.rest('GET', '/admin/users/with-sessions', undefined, s),
  },
  'POST /admin/users': {
    rule: 'admin',
    run: (s) =>
      w.rest('POST', '/admin/users', { name: 'N', email: w.fresh.email(), password: 'long-enough', role: 'user' }, s),
  },
  'GET /admin/users/:id': { rule: 'admin', run: (s) => w.rest('GET', `/admin/users/${w.liveUserId}`, undefined, s) },
  'PUT /admin/users/:id': {
    rule: 'admin',
    run: async (s) => w.rest('PUT', `/admin/users/${await w.fresh.user()}`, { name: 'Renamed' }, s),
  },
  'DELETE /admin/users/:id': {
    rule: 'admin',
    run: async (s) => w.rest('DELETE', `/admin/users/${await w.fresh.user()}`, undefined, s),
  },
  'PATCH /admin/users/:id/unlock': {
    rule: 'admin',
    run: async (s) => w.rest('PATCH', `/admin/users/${await w.fresh.user()}/unlock`, undefined, s),
  },
  'GET /admin/users/:id/sessions': {
    rule: 'admin',
    run: (s) => w.rest('GET', `/admin/users/${w.liveUserId}/sessions`, undefined, s),
  },
  'DELETE /admin/users/:id/sessions/:sessionId': {
    rule: 'admin',
    run: async (s) => {
      const target = await w.fresh.session();
      return w.rest('DELETE', `/admin/users/${target.userId}/sessions/${target.sessionId}`, undefined, s);
    },
  },
  'GET /admin/files': { rule: 'admin', run: (s) => w.rest('GET', '/admin/files', undefined, s) },
  'GET /admin/files/:id': { rule: 'admin', run: (s) => w.rest('GET', `/admin/files/${w.fileId}`, undefined, s) },
  'PUT /admin/files/:id': {
    rule: 'admin',
    run: async (s) => w.rest('PUT', `/admin/files/${await w.fresh.file()}`, { title: 'T' }, s),
  },
  'DELETE /admin/files/:id': {
    rule: 'admin',
    run: async (s) => w.rest('DELETE', `/admin/files/${await w.fresh.file()}`, undefined, s),
  },
  'GET /admin/file-access/file/:fileId': {
    rule: 'admin',
    run: (s) => w.rest('GET', `/admin/file-access/file/${w.fileId}`, undefined, s),
  },
  'POST /admin/file-access': {
    rule: 'admin',
    run: async (s) =>
      w.rest(
        'POST',
        '/admin/file-access',
        { userId: await w.fresh.user(), fileId: await w.fresh.file(), expiresAt: null },
        s,
      ),
  },
  'DELETE /admin/file-access/:id': {
    rule: 'admin',
    run: async (s) => w.rest('DELETE', `/admin/file-access/${await w.fresh.grant()}`, undefined, s),
  },
  'GET /openapi.json': { rule: 'public', run: (s) => w.rest('GET', '/openapi.json', undefined, s) },
});
