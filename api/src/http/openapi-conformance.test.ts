import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoverStorage } from '../features/files/cover.entity.js';
import { answeredOperations, contractCaller } from '../test/contract-check.js';
import { createAdminSession, createUser, signIn, TEST_PASSWORD, type Session } from '../test/factories.js';
import { newDeviceId, startTestApp, type TestApp } from '../test/harness.js';
import { addCover, createAudioFile } from '../test/library-fixtures.js';
import { createStoredAudioFile, grantFile, removeTones } from '../test/stream-fixtures.js';
import { apiRoutes } from '../compose/routes.js';

/**
 * The OpenAPI document tells the truth: every REST operation is called for real and each answer,
 * success or failure, is checked against the contract it was generated from.
 */

let t: TestApp;
let admin: Session;
let viewer: Session;
let fileId: string;

const call = contractCaller(() => t);

const deviceData = () => ({ deviceId: newDeviceId(), deviceName: 'Chrome on Linux' });
type Data<T> = { data: T };

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const user = await createUser(t);
  viewer = await signIn(t, user.email);
  fileId = (await createStoredAudioFile(t, { seconds: 12, title: 'Conformance' })).id;
  await grantFile(t, viewer.userId, fileId);
  await addCover(t, fileId, CoverStorage.file);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

describe('the REST contract', () => {
  it('holds for sign-in, your account and your devices', async () => {
    const { email } = await createUser(t);
    const login = { email, password: TEST_PASSWORD, deviceData: deviceData() };
    expect((await call('login', '/auth/login', { body: login })).body.requiresDeviceApproval).toBe(true);
    expect((await call('login', '/auth/login', { body: { ...login, deviceApproved: true } })).body.success).toBe(true);
    expect((await call('login', '/auth/login', { body: { ...login, password: 'wrong-password' } })).status).toBe(401);
    await call('login', '/auth/login', { body: { email } });

    const register = {
      name: 'New',
      email: `new-${Date.now()}@example.com`,
      password: TEST_PASSWORD,
      deviceData: deviceData(),
    };
    expect((await call('register', '/auth/register', { body: register })).status).toBe(200);
    expect((await call('register', '/auth/register', { body: { ...register, deviceApproved: true } })).status).toBe(
      201,
    );
    expect((await call('register', '/auth/register', { body: { ...register, deviceApproved: true } })).status).toBe(
      409,
    );

    await call('me', '/auth/me', { as: viewer });
    await call('me', '/auth/me');
    await call('updateMyDetails', '/auth/updatedetails', {
      as: viewer,
      body: { name: 'Viewer', email: `v-${Date.now()}@example.com` },
    });
    await call('updateMyDetails', '/auth/updatedetails', { as: viewer, body: { name: '' } });
    await call('myDevices', '/devices', { as: viewer });

    // Administrators may be signed in on several devices.
    const first = await createAdminSession(t);
    const adminEmail = (await call<Data<{ email: string }>>('me', '/auth/me', { as: first })).body.data.email;
    const other = await signIn(t, adminEmail);
    await call('deactivateDevice', `/devices/${other.deviceId}`, { as: first });
    await call('deactivateDevice', `/devices/${newDeviceId()}`, { as: first });
    await signIn(t, adminEmail);
    await call('deactivateOtherDevices', '/devices/others', { as: first });
    await call('logout', '/auth/logout', { as: first });
    await call('logout', '/auth/logout', { as: first });
  });

  it('holds for the library, covers and the admin file views', async () => {
    await call('listLibrary', '/files?sort=title&limit=5', { as: viewer });
    await call('listLibrary', '/files?limit=500', { as: viewer });
    await call('getFile', `/files/${fileId}`, { as: viewer });
    await call('getFile', '/files/not-an-id', { as: viewer });
    const cover = await call('getCover', `/files/cover/${fileId}?size=full`, { as: viewer });
    const etag = cover.headers.get('etag') ?? '';
    expect(
      (await call('getCover', `/files/cover/${fileId}`, { as: viewer, headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    await call('getCover', `/files/cover/${fileId}?size=huge`, { as: viewer });
    await call('listAdminFiles', '/admin/files?status=public', { as: admin });
    await call('listAdminFiles', '/admin/files', { as: viewer });
    await call('getAdminFile', `/admin/files/${fileId}`, { as: admin });
    await call('updateFile', `/admin/files/${fileId}`, { as: admin, body: { description: 'Checked' } });
    await call('updateFile', `/admin/files/${fileId}`, {
      as: admin,
      body: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    await call('dashboardStats', '/admin/files/stats', { as: admin });
    const doomed = await createAudioFile(t);
    await call('deleteFile', `/admin/files/${doomed.id}`, { as: viewer });
    await call('deleteFile', `/admin/files/${doomed.id}`, { as: admin });
    await call('deleteFile', `/admin/files/${doomed.id}`, { as: admin });
  });

  it('holds for checkpoints and listening progress', async () => {
    const created = await call<Data<{ id: string }>>('createCheckpoint', '/checkpoints', {
      as: viewer,
      body: { fileId, timestamp: 3.4, name: 'Here' },
    });
    await call('createCheckpoint', '/checkpoints', { as: viewer, body: { fileId: 'nope', timestamp: 1, name: 'x' } });
    await call('listCheckpoints', `/checkpoints/file/${fileId}`, { as: viewer });
    await call('deleteCheckpoint', `/checkpoints/${created.body.data.id}`, { as: viewer });
    await call('deleteCheckpoint', `/checkpoints/${created.body.data.id}`, { as: viewer });
    await call('getProgress', `/progress/${fileId}`, { as: viewer });
    await call('saveProgress', `/progress/${fileId}`, { as: viewer, body: { position: 4 } });
    await call('getProgress', `/progress/${fileId}`, { as: viewer });
    await call('continueListening', '/progress?limit=5', { as: viewer });
    await call('continueListening', '/progress?limit=0', { as: viewer });
    await call('markFinished', `/progress/${fileId}/finished`, { as: viewer, body: { finished: true } });
    await call('markFinished', `/progress/${fileId}/finished`, { as: viewer, body: { finished: 'yes' } });
    await call('finishedBooks', '/progress/finished?limit=5', { as: viewer });
    await call('finishedBooks', '/progress/finished?limit=0', { as: viewer });
  });

  it('holds for users, their sessions and access grants', async () => {
    await call('countUsers', '/admin/users/count', { as: admin });
    await call('listUsers', '/admin/users/with-sessions?search=test', { as: admin });
    const email = `made-${Date.now()}@example.com`;
    const made = await call<Data<{ id: string }>>('createUser', '/admin/users', {
      as: admin,
      body: { name: 'Made', email, password: TEST_PASSWORD, role: 'user' },
    });
    await call('createUser', '/admin/users', { as: admin, body: { name: 'Again', email, password: TEST_PASSWORD } });
    const id = made.body.data.id;
    await call('getUser', `/admin/users/${id}`, { as: admin });
    await call('updateUser', `/admin/users/${id}`, { as: admin, body: { isLocked: true } });
    await call('unlockUser', `/admin/users/${id}/unlock`, { as: admin });
    const session = await signIn(t, email);
    await call('listUserSessions', `/admin/users/${id}/sessions`, { as: admin });
    await call('terminateUserSession', `/admin/users/${id}/sessions/${session.sessionId}`, { as: admin });
    await call('terminateUserSession', `/admin/users/${id}/sessions/${session.sessionId}`, { as: admin });

    await call('fileAccessList', `/admin/file-access/file/${fileId}`, { as: admin });
    const grant = await call<Data<{ id: string }>>('grantAccess', '/admin/file-access', {
      as: admin,
      body: { userId: id, fileId },
    });
    await call('grantAccess', '/admin/file-access', { as: admin, body: { userId: id, fileId } });
    await call('revokeAccess', `/admin/file-access/${grant.body.data.id}`, { as: admin });
    await call('deleteUser', `/admin/users/${id}`, { as: admin });
    await call('deleteUser', `/admin/users/${admin.userId}`, { as: admin });
  });

  it('holds for API keys and the calls made with one', async () => {
    const created = await call<Data<{ id: string }> & { secret: string }>('createApiKey', '/admin/api-keys', {
      as: admin,
      body: { name: 'script', userId: viewer.userId, scopes: ['library:read'] },
    });
    await call('createApiKey', '/admin/api-keys', {
      as: admin,
      body: { name: 'x', userId: viewer.userId, scopes: [] },
    });
    const key = { token: created.body.secret, deviceId: '' };
    const me = await call('me', '/auth/me', { as: key });
    expect(me.headers.get('ratelimit-limit')).toBeTruthy();
    await call('listUsers', '/admin/users/with-sessions', { as: key });
    await call('listApiKeys', '/admin/api-keys', { as: admin });
    await call('revokeApiKey', `/admin/api-keys/${created.body.data.id}`, { as: admin });
    await call('listLibrary', '/files', { as: key });
    await call('openApiDocument', '/openapi.json');
  });

  it('has answered every operation of these groups with a success', () => {
    const groups = [
      'auth',
      'devices',
      'library',
      'admin-files',
      'admin-users',
      'checkpoints',
      'progress',
      'access',
      'api-keys',
      'meta',
    ];
    const missed = apiRoutes.filter((r) => groups.includes(r.tag) && !answeredOperations.has(r.operationId));
    expect(missed.map((r) => r.operationId)).toEqual([]);
  });
});
