import { createPubSub } from '@graphql-yoga/subscription';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppPubSub } from '../../event-bus.js';
import { createSchema } from '../../graphql/schema.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { graphqlOperations, restOperations } from '../../test/operation-inventory.js';
import { Checkpoint } from '../checkpoints/checkpoint.entity.js';
import { CoverStorage } from '../files/cover.entity.js';
import { User } from '../users/user.entity.js';

/**
 * Every query, mutation and REST route of the library and administration API, called as each kind
 * of caller. The operation list is read from the schema and the router, so a new operation fails
 * this test until it is added here (or to `coveredElsewhere`, with the test that covers it).
 */

const personas = ['anonymous', 'noGrant', 'expiredGrant', 'liveGrant', 'locked', 'admin'] as const;
type Persona = (typeof personas)[number];
type Rule = 'admin' | 'visibleFile' | 'signedIn' | 'owner' | 'public';
type Outcome = { code: string; text: string };

const expected: Record<Rule, Record<Persona, string>> = {
  admin: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'FORBIDDEN',
    expiredGrant: 'FORBIDDEN',
    liveGrant: 'FORBIDDEN',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  visibleFile: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'NOT_FOUND',
    expiredGrant: 'NOT_FOUND',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  signedIn: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'ok',
    expiredGrant: 'ok',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  // Only the owner (the live-grant user here) may delete a checkpoint; not even an administrator,
  // and to everyone else it answers as an unknown id.
  owner: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'NOT_FOUND',
    expiredGrant: 'NOT_FOUND',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'NOT_FOUND',
  },
  // A locked account's token is refused even where no sign-in is needed.
  public: {
    anonymous: 'ok',
    noGrant: 'ok',
    expiredGrant: 'ok',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
};

const identity = 'identity and devices: src/features/auth/auth.test.ts';
const uploads = 'uploads: src/features/uploads/uploads.test.ts and chunked-upload.test.ts';
const chapters = 'chapters: src/features/chapters/chapter.test.ts';
const streaming = 'DRM streaming: src/features/streaming/stream.test.ts';
const apiKeys = 'API keys: src/features/api-keys/api-keys.test.ts';
/** Operations of other features, each with the test that walks its permissions. */
const coveredElsewhere: Record<string, string> = {
  'query apiKeys': apiKeys,
  'mutation createApiKey': apiKeys,
  'mutation revokeApiKey': apiKeys,
  'GET /admin/api-keys': apiKeys,
  'POST /admin/api-keys': apiKeys,
  'DELETE /admin/api-keys/:id': apiKeys,
  'query me': identity,
  'mutation login': identity,
  'mutation register': identity,
  'mutation logout': identity,
  'mutation updateMyDetails': identity,
  'query myDevices': identity,
  'mutation deactivateDevice': identity,
  'mutation deactivateOtherDevices': identity,
  'subscription securityEvents': identity,
  'GET /auth/me': identity,
  'POST /auth/login': identity,
  'POST /auth/logout': identity,
  'POST /auth/register': identity,
  'PUT /auth/updatedetails': identity,
  'GET /devices': identity,
  'DELETE /devices/others': identity,
  'DELETE /devices/:deviceId': identity,
  'mutation initUpload': uploads,
  'mutation finalizeUpload': uploads,
  'mutation cancelUpload': uploads,
  'query uploadSession': uploads,
  'query myUploadSessions': uploads,
  'POST /files': uploads,
  'POST /audio/upload/init': uploads,
  'POST /audio/upload/chunk': uploads,
  'GET /audio/upload/status/:uploadId': uploads,
  'POST /audio/upload/finalize/:uploadId': uploads,
  'DELETE /audio/upload/cancel/:uploadId': uploads,
  'query chapters': chapters,
  'query chapterStatus': chapters,
  'mutation createChapters': chapters,
  'mutation loadSampleChapters': chapters,
  'mutation updateChapter': chapters,
  'mutation deleteChapter': chapters,
  'mutation finalizeChapters': chapters,
  'mutation chapterStreamUrl': chapters,
  'subscription chapterEvents': chapters,
  'GET /files/:id/chapters': chapters,
  'GET /files/:id/chapters/status': chapters,
  'POST /files/:id/chapters': chapters,
  'POST /files/:id/chapters/sample': chapters,
  'POST /files/:id/chapters/finalize': chapters,
  'PUT /files/:id/chapters/:chapterId': chapters,
  'DELETE /files/:id/chapters/:chapterId': chapters,
  'POST /files/:id/chapters/:chapterId/stream-url': chapters,
  'GET /chapters/:chapterId/playlist.m3u8': chapters,
  'GET /chapters/:chapterId/key': chapters,
  'GET /chapters/:chapterId/segments/:token/:segment': chapters,
  'query drmStatus': streaming,
  'mutation createStreamSession': streaming,
  'mutation createSignedUrl': streaming,
  'GET /drm/status/:fileId': streaming,
  'POST /drm/session/:fileId': streaming,
  'GET /drm/stream/:token': streaming,
  'HEAD /drm/stream/:token': streaming,
  'POST /drm/signed-url/:fileId': streaming,
  'GET /drm/signed/:fileId': streaming,
  'HEAD /drm/signed/:fileId': streaming,
};

let t: TestApp;
const sessions = {} as Record<Persona, Session | null>;
let fileId: string;
let liveUserId: string;
/** Which persona owns each checkpoint, to prove no response carries someone else's. */
const checkpointOwners = new Map<string, Persona>();

beforeAll(async () => {
  t = await startTestApp();
  const file = await createAudioFile(t, { title: 'Matrix file' });
  fileId = file.id;
  await addCover(t, file.id, CoverStorage.file);
  sessions.anonymous = null;
  sessions.admin = await createAdminSession(t);
  for (const persona of ['noGrant', 'expiredGrant', 'liveGrant', 'locked'] as const) {
    const user = await createUser(t, { name: persona });
    sessions[persona] = await signIn(t, user.email);
  }
  liveUserId = sessions.liveGrant!.userId;
  await grantFile(t, sessions.expiredGrant!.userId, [file.id], { expiresAt: new Date(Date.now() - 60_000) });
  await grantFile(t, liveUserId, [file.id]);
  await grantFile(t, sessions.locked!.userId, [file.id]);
  await t.app.orm.em.fork().nativeUpdate(User, { id: sessions.locked!.userId }, { isLocked: true });
  for (const persona of ['liveGrant', 'admin'] as const) {
    const res = await t.rest<{ data: { id: string } }>(
      'POST',
      '/checkpoints',
      { fileId, timestamp: 1, name: persona },
      sessions[persona]!,
    );
    checkpointOwners.set(res.body.data.id, persona);
  }
});
afterAll(async () => {
  await t?.close();
});

async function rest(method: string, path: string, body: unknown, s: Session | null): Promise<Outcome> {
  const res = await t.rest<{ error?: { code?: string } }>(method, path, body, s ?? undefined);
  const code = res.status < 400 ? 'ok' : (res.body.error?.code ?? String(res.status));
  return { code, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) };
}

async function gql(query: string, variables: Record<string, unknown>, s: Session | null): Promise<Outcome> {
  const res = await t.gql(query, variables, s ?? undefined);
  return { code: res.errors?.[0]?.extensions?.code ?? 'ok', text: JSON.stringify(res) };
}

let counter = 0;
const fresh = {
  file: async () => (await createAudioFile(t, { title: `fresh ${++counter}` })).id,
  user: async () => (await createUser(t, { name: `fresh ${++counter}` })).id,
  grant: async () => {
    const [grant] = await grantFile(t, await fresh.user(), [await fresh.file()]);
    return grant.id;
  },
  /** A checkpoint of the live-grant user, to be deleted. */
  checkpoint: async () => {
    const em = t.app.orm.em.fork();
    const checkpoint = em.create(Checkpoint, { file: fileId, user: liveUserId, timestamp: 0, name: 'to delete' });
    await em.persist(checkpoint).flush();
    return checkpoint.id;
  },
  session: async () => {
    const user = await createUser(t);
    return signIn(t, user.email);
  },
  email: () => `made-${++counter}-${Date.now()}@example.com`,
};

interface Case {
  rule: Rule;
  run(s: Session | null): Promise<Outcome>;
  /** What the answer must show when it succeeds. */
  check?(persona: Persona, outcome: Outcome): void;
}

/** Whether the private test file appears in a list: only for the live grant and the administrator. */
const listsTheFileWhenVisible = (persona: Persona, outcome: Outcome) => {
  expect(outcome.text.includes(fileId), `${persona} list`).toBe(persona === 'liveGrant' || persona === 'admin');
};

const cases: Record<string, Case> = {
  'GET /files': { rule: 'signedIn', run: (s) => rest('GET', '/files', undefined, s), check: listsTheFileWhenVisible },
  'GET /files/:id': { rule: 'visibleFile', run: (s) => rest('GET', `/files/${fileId}`, undefined, s) },
  'GET /files/cover/:id': { rule: 'visibleFile', run: (s) => rest('GET', `/files/cover/${fileId}`, undefined, s) },
  'GET /checkpoints/file/:fileId': {
    rule: 'visibleFile',
    run: (s) => rest('GET', `/checkpoints/file/${fileId}`, undefined, s),
  },
  'POST /checkpoints': {
    rule: 'visibleFile',
    run: (s) => rest('POST', '/checkpoints', { fileId, timestamp: 2, name: 'm' }, s),
  },
  'DELETE /checkpoints/:id': {
    rule: 'owner',
    run: async (s) => rest('DELETE', `/checkpoints/${await fresh.checkpoint()}`, undefined, s),
  },
  'GET /progress': { rule: 'signedIn', run: (s) => rest('GET', '/progress', undefined, s) },
  'GET /progress/:fileId': { rule: 'visibleFile', run: (s) => rest('GET', `/progress/${fileId}`, undefined, s) },
  'PUT /progress/:fileId': {
    rule: 'visibleFile',
    run: (s) => rest('PUT', `/progress/${fileId}`, { position: 4 }, s),
  },
  'GET /admin/users/count': { rule: 'admin', run: (s) => rest('GET', '/admin/users/count', undefined, s) },
  'GET /admin/files/stats': { rule: 'admin', run: (s) => rest('GET', '/admin/files/stats', undefined, s) },
  'GET /admin/users/with-sessions': {
    rule: 'admin',
    run: (s) => rest('GET', '/admin/users/with-sessions', undefined, s),
  },
  'POST /admin/users': {
    rule: 'admin',
    run: (s) =>
      rest('POST', '/admin/users', { name: 'N', email: fresh.email(), password: 'long-enough', role: 'user' }, s),
  },
  'GET /admin/users/:id': { rule: 'admin', run: (s) => rest('GET', `/admin/users/${liveUserId}`, undefined, s) },
  'PUT /admin/users/:id': {
    rule: 'admin',
    run: async (s) => rest('PUT', `/admin/users/${await fresh.user()}`, { name: 'Renamed' }, s),
  },
  'DELETE /admin/users/:id': {
    rule: 'admin',
    run: async (s) => rest('DELETE', `/admin/users/${await fresh.user()}`, undefined, s),
  },
  'PATCH /admin/users/:id/unlock': {
    rule: 'admin',
    run: async (s) => rest('PATCH', `/admin/users/${await fresh.user()}/unlock`, undefined, s),
  },
  'GET /admin/users/:id/sessions': {
    rule: 'admin',
    run: (s) => rest('GET', `/admin/users/${liveUserId}/sessions`, undefined, s),
  },
  'DELETE /admin/users/:id/sessions/:sessionId': {
    rule: 'admin',
    run: async (s) => {
      const target = await fresh.session();
      return rest('DELETE', `/admin/users/${target.userId}/sessions/${target.sessionId}`, undefined, s);
    },
  },
  'GET /admin/files': { rule: 'admin', run: (s) => rest('GET', '/admin/files', undefined, s) },
  'GET /admin/files/:id': { rule: 'admin', run: (s) => rest('GET', `/admin/files/${fileId}`, undefined, s) },
  'PUT /admin/files/:id': {
    rule: 'admin',
    run: async (s) => rest('PUT', `/admin/files/${await fresh.file()}`, { title: 'T' }, s),
  },
  'DELETE /admin/files/:id': {
    rule: 'admin',
    run: async (s) => rest('DELETE', `/admin/files/${await fresh.file()}`, undefined, s),
  },
  'GET /admin/file-access/file/:fileId': {
    rule: 'admin',
    run: (s) => rest('GET', `/admin/file-access/file/${fileId}`, undefined, s),
  },
  'POST /admin/file-access': {
    rule: 'admin',
    run: async (s) =>
      rest(
        'POST',
        '/admin/file-access',
        { userId: await fresh.user(), fileId: await fresh.file(), expiresAt: null },
        s,
      ),
  },
  'DELETE /admin/file-access/:id': {
    rule: 'admin',
    run: async (s) => rest('DELETE', `/admin/file-access/${await fresh.grant()}`, undefined, s),
  },
  'GET /openapi.json': { rule: 'public', run: (s) => rest('GET', '/openapi.json', undefined, s) },

  'query audioFiles': {
    rule: 'signedIn',
    run: (s) => gql('{ audioFiles(limit: 100) { total items { id } } }', {}, s),
    check: listsTheFileWhenVisible,
  },
  'query audioFile': {
    rule: 'visibleFile',
    run: (s) => gql('query ($id: ID!) { audioFile(id: $id) { id chapters { id } coverImagePath } }', { id: fileId }, s),
  },
  'query checkpoints': {
    rule: 'visibleFile',
    run: (s) => gql('query ($id: ID!) { checkpoints(fileId: $id) { id userId } }', { id: fileId }, s),
  },
  'mutation createCheckpoint': {
    rule: 'visibleFile',
    run: (s) =>
      gql(
        'mutation ($i: CreateCheckpointInput!) { createCheckpoint(input: $i) { id } }',
        { i: { fileId, timestamp: 3, name: 'g' } },
        s,
      ),
  },
  'mutation deleteCheckpoint': {
    rule: 'owner',
    run: async (s) => gql('mutation ($id: ID!) { deleteCheckpoint(id: $id) }', { id: await fresh.checkpoint() }, s),
  },
  'query continueListening': {
    rule: 'signedIn',
    run: (s) => gql('{ continueListening { id progress { position } } }', {}, s),
  },
  'mutation saveProgress': {
    rule: 'visibleFile',
    run: (s) =>
      gql(
        'mutation ($id: ID!) { saveProgress(fileId: $id, input: { position: 5 }) { position } }',
        { id: fileId },
        s,
      ),
  },
  'query adminUsers': { rule: 'admin', run: (s) => gql('{ adminUsers { total items { id sessionCount } } }', {}, s) },
  'query userCount': { rule: 'admin', run: (s) => gql('{ userCount }', {}, s) },
  'query adminUser': {
    rule: 'admin',
    run: (s) => gql('query ($id: ID!) { adminUser(id: $id) { id } }', { id: liveUserId }, s),
  },
  'mutation createUser': {
    rule: 'admin',
    run: (s) =>
      gql(
        'mutation ($i: CreateUserInput!) { createUser(input: $i) { id } }',
        { i: { name: 'G', email: fresh.email(), password: 'long-enough' } },
        s,
      ),
  },
  'mutation updateUser': {
    rule: 'admin',
    run: async (s) =>
      gql('mutation ($id: ID!) { updateUser(id: $id, input: { name: "R" }) { id } }', { id: await fresh.user() }, s),
  },
  'mutation deleteUser': {
    rule: 'admin',
    run: async (s) => gql('mutation ($id: ID!) { deleteUser(id: $id) }', { id: await fresh.user() }, s),
  },
  'mutation unlockUser': {
    rule: 'admin',
    run: async (s) => gql('mutation ($id: ID!) { unlockUser(userId: $id) { id } }', { id: await fresh.user() }, s),
  },
  'query userSessions': {
    rule: 'admin',
    run: (s) => gql('query ($id: ID!) { userSessions(userId: $id) { id } }', { id: liveUserId }, s),
  },
  'mutation terminateUserSession': {
    rule: 'admin',
    run: async (s) => {
      const target = await fresh.session();
      return gql(
        'mutation ($u: ID!, $s: ID!) { terminateUserSession(userId: $u, sessionId: $s) }',
        { u: target.userId, s: target.sessionId },
        s,
      );
    },
  },
  'query auditLog': { rule: 'admin', run: (s) => gql('{ auditLog { total } }', {}, s) },
  'query adminFiles': {
    rule: 'admin',
    run: (s) => gql('{ adminFiles(status: PRIVATE) { total items { id fileAccesses { id } } } }', {}, s),
  },
  'query adminFile': {
    rule: 'admin',
    run: (s) => gql('query ($id: ID!) { adminFile(id: $id) { id } }', { id: fileId }, s),
  },
  'mutation updateFile': {
    rule: 'admin',
    run: async (s) =>
      gql(
        'mutation ($id: ID!) { updateFile(id: $id, input: { isPublic: false }) { id } }',
        { id: await fresh.file() },
        s,
      ),
  },
  'mutation deleteFile': {
    rule: 'admin',
    run: async (s) => gql('mutation ($id: ID!) { deleteFile(id: $id) }', { id: await fresh.file() }, s),
  },
  'query fileAccessList': {
    rule: 'admin',
    run: (s) =>
      gql('query ($id: ID!) { fileAccessList(fileId: $id) { grants { status } allUsers { id } } }', { id: fileId }, s),
  },
  'mutation grantAccess': {
    rule: 'admin',
    run: async (s) =>
      gql(
        'mutation ($i: GrantAccessInput!) { grantAccess(input: $i) { id } }',
        { i: { userId: await fresh.user(), fileId: await fresh.file() } },
        s,
      ),
  },
  'mutation revokeAccess': {
    rule: 'admin',
    run: async (s) => gql('mutation ($id: ID!) { revokeAccess(id: $id) { status } }', { id: await fresh.grant() }, s),
  },
  'query dashboardStats': { rule: 'admin', run: (s) => gql('{ dashboardStats { fileCount } }', {}, s) },
};

/** Field-level rules that the operation list cannot see. */
const fieldCases: Record<string, Case> = {
  'AudioFile.fileAccesses': {
    rule: 'admin',
    // The live-grant user may see the file, but not who else may.
    run: (s) => gql('query ($id: ID!) { audioFile(id: $id) { fileAccesses { id } } }', { id: fileId }, s),
  },
};
// For callers who cannot see the file at all, the file itself answers first.
const fieldExpected: Record<Persona, string> = { ...expected.admin, noGrant: 'NOT_FOUND', expiredGrant: 'NOT_FOUND' };

describe('permission matrix', () => {
  it('has a case (or a covering test elsewhere) for every operation in the schema and the router', async () => {
    const schema = await createSchema(createPubSub() as AppPubSub);
    const all = [...graphqlOperations(schema), ...restOperations()];
    const untested = all.filter((op) => !(op in cases) && !(op in coveredElsewhere));
    expect(untested, 'operations with no permission case').toEqual([]);
    const stale = [...Object.keys(cases), ...Object.keys(coveredElsewhere)].filter((op) => !all.includes(op));
    expect(stale, 'cases for operations that no longer exist').toEqual([]);
  });

  it.each(Object.entries(cases))('%s answers each caller as it should', async (_op, c) => {
    for (const persona of personas) {
      const outcome = await c.run(sessions[persona]);
      expect(outcome.code, `${persona}: ${outcome.text.slice(0, 300)}`).toBe(expected[c.rule][persona]);
      expect(outcome.text).not.toMatch(/password_?hash|"key"|"iv"|BEGIN PRIVATE/i);
      for (const [checkpointId, owner] of checkpointOwners) {
        if (owner !== persona) expect(outcome.text, `${persona} got ${owner}'s checkpoint`).not.toContain(checkpointId);
      }
      if (outcome.code === 'ok') c.check?.(persona, outcome);
    }
  });

  it.each(Object.entries(fieldCases))('field %s answers each caller as it should', async (_field, c) => {
    for (const persona of personas) {
      const outcome = await c.run(sessions[persona]);
      expect(outcome.code, persona).toBe(fieldExpected[persona]);
    }
  });

  it('answers NOT_FOUND for unknown ids and BAD_USER_INPUT for ids of the wrong shape', async () => {
    const admin = sessions.admin;
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      '/files/',
      '/admin/files/',
      '/admin/users/',
      '/admin/file-access/file/',
      '/checkpoints/file/',
    ]) {
      expect((await rest('GET', `${path}${missing}`, undefined, admin)).code, path).toBe('NOT_FOUND');
      expect((await rest('GET', `${path}not-an-id`, undefined, admin)).code, path).toBe('BAD_USER_INPUT');
    }
    expect((await gql('query ($id: ID!) { audioFile(id: $id) { id } }', { id: missing }, admin)).code).toBe(
      'NOT_FOUND',
    );
    expect((await gql('mutation ($id: ID!) { revokeAccess(id: $id) { id } }', { id: 'nope' }, admin)).code).toBe(
      'BAD_USER_INPUT',
    );
  });
});
