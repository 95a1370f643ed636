import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoverStorage } from '../../features/files/cover.entity.js';
import { createAdminSession, createUser, TEST_PASSWORD, type Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { addCover, createAudioFile } from '../library-fixtures.js';
import { uploadForm } from '../upload-client.js';
import { textPayloads } from './payloads.js';
import { expectSecurityHeaders, rawRequest } from './response-checks.js';
import { credentials } from './hostile-session.js';

/**
 * Hostile text that is valid input is stored and given back exactly as sent, as JSON, by both
 * transports: escaping is the web app's job (React), never the API's, and nothing is mangled.
 */

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

interface StoredView {
  adminUser: { name: string };
  audioFile: { title: string; description: string; chapters: { label: string }[] };
  checkpoints: { name: string; description: string }[];
}

async function gqlJson(query: string, variables: Record<string, unknown>) {
  const res = await rawRequest(t.url, {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...credentials(admin) },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(res.text) as { data: StoredView };
}

async function restJson(route: string) {
  const res = await rawRequest(t.url, { method: 'GET', path: `/api/v1${route}`, headers: credentials(admin) });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(res.text) as { data: Record<string, unknown> & { chapters?: { label: string }[] } };
}

describe('stored hostile text', () => {
  it.each(textPayloads.map((p) => [p]))('%s comes back verbatim from REST and GraphQL', async (text) => {
    const user = await t.rest<{ data: { id: string } }>(
      'POST',
      '/admin/users',
      {
        name: text,
        email: `verbatim-${Date.now()}-${Math.random()}@example.com`,
        password: 'long-enough-password',
        role: 'user',
      },
      admin,
    );
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const file = await createAudioFile(t);
    const updated = await t.rest(
      'PUT',
      `/admin/files/${file.id}`,
      uploadForm({ title: text, description: text }),
      admin,
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const checkpoint = await t.rest(
      'POST',
      '/checkpoints',
      { fileId: file.id, timestamp: 1, name: text, description: text },
      admin,
    );
    expect(checkpoint.status, JSON.stringify(checkpoint.body)).toBe(201);
    const chapters = await t.rest(
      'POST',
      `/files/${file.id}/chapters`,
      { chapters: [{ label: text, startTime: 0 }] },
      admin,
    );
    expect(chapters.status, JSON.stringify(chapters.body)).toBe(201);

    expect((await restJson(`/admin/users/${user.body.data.id}`)).data.name).toBe(text);
    const restFile = (await restJson(`/files/${file.id}`)).data;
    expect([restFile.title, restFile.description, restFile.chapters?.[0].label]).toEqual([text, text, text]);
    const restCheckpoints = (await restJson(`/checkpoints/file/${file.id}`)).data as unknown as {
      name: string;
      description: string;
    }[];
    expect([restCheckpoints[0].name, restCheckpoints[0].description]).toEqual([text, text]);

    const gql = await gqlJson(
      `query ($u: ID!, $f: ID!) {
        adminUser(id: $u) { name }
        audioFile(id: $f) { title description chapters { label } }
        checkpoints(fileId: $f) { name description }
      }`,
      { u: user.body.data.id, f: file.id },
    );
    expect(gql.data.adminUser.name).toBe(text);
    expect([gql.data.audioFile.title, gql.data.audioFile.description, gql.data.audioFile.chapters[0].label]).toEqual([
      text,
      text,
      text,
    ]);
    expect([gql.data.checkpoints[0].name, gql.data.checkpoints[0].description]).toEqual([text, text]);
  });

  it('sends the security headers with every kind of response', async () => {
    const file = await createAudioFile(t);
    await addCover(t, file.id, CoverStorage.file);
    const requests = [
      { method: 'GET', path: '/healthz' },
      { method: 'GET', path: '/' },
      { method: 'GET', path: '/library' },
      { method: 'GET', path: '/api/v1/openapi.json' },
      { method: 'GET', path: '/api/v1/no-such-route' },
      { method: 'GET', path: `/api/v1/files/cover/${file.id}`, headers: credentials(admin) },
      { method: 'GET', path: `/api/v1/files/${file.id}`, headers: credentials(admin) },
      { method: 'GET', path: '/api/v1/auth/me', headers: { authorization: 'Bearer forged', 'x-device-id': 'x' } },
      {
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"a@b.c","password":"x"}',
      },
      { method: 'OPTIONS', path: '/graphql' },
    ];
    for (const req of requests) {
      const res = await rawRequest(t.url, req);
      expect(res.status, req.path).toBeLessThan(500);
      expectSecurityHeaders(res, `${req.method} ${req.path}`);
    }
  });

  it('lets no browser or proxy store an API answer (tokens, profiles, pages, errors)', async () => {
    const file = await createAudioFile(t);
    const user = await createUser(t);
    const login = { method: 'POST', path: '/api/v1/auth/login', headers: { 'content-type': 'application/json' } };
    const signIn = {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: { deviceId: 'no-store-device' },
      deviceApproved: true,
    };
    const requests = [
      { ...login, body: JSON.stringify(signIn) },
      { ...login, body: '{"email":"a@b.c","password":"x"}' },
      { method: 'GET', path: '/api/v1/auth/me', headers: credentials(admin) },
      { method: 'GET', path: `/api/v1/files/${file.id}`, headers: credentials(admin) },
      { method: 'GET', path: '/api/v1/admin/users', headers: credentials(admin) },
      { method: 'GET', path: '/api/v1/no-such-route' },
    ];
    for (const req of requests) {
      const res = await rawRequest(t.url, req);
      expect(res.headers['cache-control'], `${req.method} ${req.path} ${res.status}`).toBe('no-store');
    }
  });
});
