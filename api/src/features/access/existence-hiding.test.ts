import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from '../../test/api-keys.js';
import { ChapterClient, parsePlaylist, withSession } from '../../test/chapter-client.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { grantFile } from '../../test/library-fixtures.js';
import { removeGrant, removeTones, setGrant, streamProofCookie } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

/**
 * Every playback route answers for a file the caller may not see (no grant, an expired one, a
 * revoked one) exactly as for a file that does not exist, so ids reveal nothing; and a caller with
 * a live grant is served. Refusals of the credential itself (a copied URL, an ended session, a
 * locked account) are walked in stream.test.ts, stream-proof.test.ts and chapter-key-access.test.ts.
 */

let t: TestApp;
let admin: Session;
let chapters: ChapterClient;
let file: AudioFile;
let chapterId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A file of 20 s with one ready chapter. */
async function playableFile(): Promise<{ file: AudioFile; chapterId: string }> {
  const made = await chapters.fileWithChapters([{ label: 'Only', startTime: 0, endTime: 6 }]);
  const [chapter] = await chapters.finalizeAndWait(made.id, 'filesystem');
  expect(chapter.status).toBe('ready');
  return { file: made, chapterId: chapter.id };
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  chapters = new ChapterClient(t, admin);
  ({ file, chapterId } = await playableFile());
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

/** An answer as a caller tells answers apart: its status, its error code ('ok' on success) and its body. */
interface Answer {
  status: number;
  code: string;
  body: unknown;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  // HEAD answers carry a JSON type but no body.
  const body = text && res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : null;
  const error = (body as { error?: { code?: string } } | null)?.error?.code;
  return { status: res.status, code: res.ok ? 'ok' : (error ?? String(res.status)), body };
}

async function restAnswer(method: string, path: string, body: unknown, headers: Record<string, string>) {
  const init = body === undefined ? {} : { body: JSON.stringify(body) };
  const json = body === undefined ? {} : { 'content-type': 'application/json' };
  return answerOf(await fetch(`${t.url}/api/v1${path}`, { method, headers: { ...json, ...headers }, ...init }));
}

async function gqlAnswer(query: string, variables: Record<string, unknown>, s: Session): Promise<Answer> {
  const res = await t.gql(query, variables, s);
  return { status: res.status, code: res.errors?.[0]?.extensions?.code ?? 'ok', body: res };
}

/** A caller of the file: a signed-in user and their API key (scope stream). */
interface Caller {
  session: Session;
  key: string;
}

/** A playback call naming a file, by the caller given. */
type Call = (fileId: string, c: Caller) => Promise<Answer>;

const rest =
  (method: string, path: (fileId: string) => string, body?: (fileId: string) => unknown): Call =>
  (fileId, c) =>
    restAnswer(method, path(fileId), body?.(fileId), withSession(c.session));

const gql =
  (query: string, variables = (fileId: string): Record<string, unknown> => ({ fileId })): Call =>
  (fileId, c) =>
    gqlAnswer(query, variables(fileId), c.session);

const keyAudio =
  (method: string): Call =>
  (fileId, c) =>
    restAnswer(method, `/files/${fileId}/audio`, undefined, { authorization: `Bearer ${c.key}` });

const calls: Record<string, Call> = {
  'GET /drm/status/:fileId': rest('GET', (id) => `/drm/status/${id}`),
  'POST /drm/session/:fileId': rest('POST', (id) => `/drm/session/${id}`),
  'POST /drm/signed-url/:fileId': rest(
    'POST',
    (id) => `/drm/signed-url/${id}`,
    () => ({ startTime: 0 }),
  ),
  'POST /files/:id/chapters/:chapterId/stream-url': rest(
    'POST',
    (id) => `/files/${id}/chapters/${chapterId}/stream-url`,
    () => ({ expiresIn: 1800000 }),
  ),
  'GET /files/:id/chapters': rest('GET', (id) => `/files/${id}/chapters`),
  'GET /files/:id/chapters/status': rest('GET', (id) => `/files/${id}/chapters/status`),
  'GET /files/:id': rest('GET', (id) => `/files/${id}`),
  'GET /progress/:fileId': rest('GET', (id) => `/progress/${id}`),
  'PUT /progress/:fileId': rest(
    'PUT',
    (id) => `/progress/${id}`,
    () => ({ position: 1 }),
  ),
  'GET /checkpoints/file/:fileId': rest('GET', (id) => `/checkpoints/file/${id}`),
  'POST /checkpoints': rest(
    'POST',
    () => '/checkpoints',
    (id) => ({ fileId: id, timestamp: 1, name: 'Here' }),
  ),
  'GET /files/:id/audio (API key)': keyAudio('GET'),
  'HEAD /files/:id/audio (API key)': keyAudio('HEAD'),
  'query drmStatus': gql('query ($fileId: ID!) { drmStatus(fileId: $fileId) { fileId } }'),
  'mutation createStreamSession': gql('mutation ($fileId: ID!) { createStreamSession(fileId: $fileId) { duration } }'),
  'mutation createSignedUrl': gql(
    'mutation ($fileId: ID!) { createSignedUrl(fileId: $fileId, input: { startTime: 0 }) { signedUrl } }',
  ),
  'mutation chapterStreamUrl': gql(
    'mutation ($fileId: ID!, $chapterId: ID!) { chapterStreamUrl(fileId: $fileId, chapterId: $chapterId) { streamUrl } }',
    (fileId) => ({ fileId, chapterId }),
  ),
  'query chapters': gql('query ($fileId: ID!) { chapters(fileId: $fileId) { id } }'),
  'query chapterStatus': gql('query ($fileId: ID!) { chapterStatus(fileId: $fileId) { ready } }'),
  'query audioFile': gql('query ($fileId: ID!) { audioFile(id: $fileId) { id } }'),
  'mutation saveProgress': gql(
    'mutation ($fileId: ID!) { saveProgress(fileId: $fileId, input: { position: 1 }) { position } }',
  ),
};

type Access = 'no grant' | 'expired grant' | 'revoked grant' | 'live grant';

describe('a call naming a file the caller may not see', () => {
  const callers = {} as Record<Access, Caller>;
  beforeAll(async () => {
    const grants: Record<Access, { expiresAt?: Date; canView?: boolean } | null> = {
      'no grant': null,
      'expired grant': { expiresAt: new Date(Date.now() - 60_000) },
      'revoked grant': { canView: false },
      'live grant': {},
    };
    for (const [access, grant] of Object.entries(grants) as [Access, (typeof grants)[Access]][]) {
      const user = await createUser(t);
      if (grant) await grantFile(t, user.id, [file.id], grant);
      const session = await signIn(t, user.email);
      callers[access] = { session, key: (await newKey(t, admin, user.id, ['STREAM'])).secret };
    }
  });

  it.each(Object.entries(calls))('%s answers as for an unknown id (404), and serves a live grant', async (_, call) => {
    for (const access of ['no grant', 'expired grant', 'revoked grant'] as const) {
      const [hidden, unknown] = [await call(file.id, callers[access]), await call(UNKNOWN, callers[access])];
      expect(unknown.code, access).toMatch(/^(NOT_FOUND|404)$/);
      expect(hidden, access).toEqual(unknown);
    }
    const served = await call(file.id, callers['live grant']);
    expect(served.code, JSON.stringify(served.body)).toBe('ok');
    expect(served.status).toBeLessThan(300);
  });
});

/** The URLs a player is handed while it may see the file, and how it fetches each. */
async function playbackUrls(target: { file: AudioFile; chapterId: string }, s: Session) {
  const session = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${target.file.id}`, undefined, s);
  const seek = await t.rest<{ data: { signedUrl: string } }>(
    'POST',
    `/drm/signed-url/${target.file.id}`,
    { startTime: 2 },
    s,
  );
  const stream = `${t.url}${session.body.data.streamUrl}`;
  const signed = `${t.url}${seek.body.data.signedUrl}`;
  const playlist = await chapters.streamUrl(target.file.id, target.chapterId, s);
  const { keyUrl } = parsePlaylist(await (await fetch(playlist, { headers: withSession(s) })).text(), playlist);
  // The media element sends the stream-path cookie; the HLS player its session's headers.
  const asBrowser = (url: string, headers: Headers) => (method: string) =>
    fetch(url, { method, headers: { cookie: streamProofCookie(headers), range: 'bytes=0-99' } }).then(answerOf);
  const asPlayer = (url: string) => () => fetch(url, { headers: withSession(s) }).then(answerOf);
  const streamAs = asBrowser(stream, session.headers);
  const seekAs = asBrowser(signed, seek.headers);
  return {
    'GET /drm/stream/:token': () => streamAs('GET'),
    'HEAD /drm/stream/:token': () => streamAs('HEAD'),
    'GET /drm/signed/:fileId': () => seekAs('GET'),
    'HEAD /drm/signed/:fileId': () => seekAs('HEAD'),
    'GET /chapters/:chapterId/playlist.m3u8': asPlayer(playlist),
    'GET /chapters/:chapterId/key': asPlayer(keyUrl),
  };
}

type Fetches = Awaited<ReturnType<typeof playbackUrls>>;

async function answersOf(fetches: Fetches): Promise<Record<string, Answer>> {
  const answers: Record<string, Answer> = {};
  for (const [route, fetchIt] of Object.entries(fetches)) answers[route] = await fetchIt();
  return answers;
}

describe('a URL issued while the file was visible', () => {
  /** What each URL answers once its file is deleted: the answer for an unknown id. */
  let gone: Record<string, Answer>;
  beforeAll(async () => {
    const doomed = await playableFile();
    const viewer = await chapters.viewerOf(doomed.file.id);
    const fetches = await playbackUrls(doomed, viewer);
    expect((await t.rest('DELETE', `/admin/files/${doomed.file.id}`, undefined, admin)).status).toBe(200);
    gone = await answersOf(fetches);
  });

  it('answers for a deleted file as for an unknown id: 404, but 403 for a stream token (its own id)', () => {
    const codes = Object.fromEntries(Object.entries(gone).map(([route, a]) => [route, [a.status, a.code]]));
    expect(codes).toEqual({
      'GET /drm/stream/:token': [403, 'FORBIDDEN'],
      'HEAD /drm/stream/:token': [403, '403'],
      'GET /drm/signed/:fileId': [404, 'NOT_FOUND'],
      'HEAD /drm/signed/:fileId': [404, '404'],
      'GET /chapters/:chapterId/playlist.m3u8': [404, 'NOT_FOUND'],
      'GET /chapters/:chapterId/key': [404, 'NOT_FOUND'],
    });
  });

  it('answers a token whose file went out of view as an unknown token, so the player opens a new session', async () => {
    const unknown = await fetch(`${t.url}/api/v1/drm/stream/${'A'.repeat(43)}`).then(answerOf);
    expect(gone['GET /drm/stream/:token']).toEqual(unknown);
  });

  const ways: [string, (viewer: Session & { grantId: string }) => Promise<void>][] = [
    ['the grant is removed', (v) => removeGrant(t, v.grantId)],
    ['the grant expires', (v) => setGrant(t, v.grantId, { expiresAt: new Date(Date.now() - 1000) })],
    [
      'the grant is revoked',
      async (v) => {
        expect((await t.rest('DELETE', `/admin/file-access/${v.grantId}`, undefined, admin)).status).toBe(200);
      },
    ],
  ];

  it.each(ways)('answers as for a deleted file once %s', async (_, takeAway) => {
    const viewer = await chapters.viewerOf(file.id);
    const fetches = await playbackUrls({ file, chapterId }, viewer);
    for (const [route, answer] of Object.entries(await answersOf(fetches))) expect(answer.code, route).toBe('ok');
    await takeAway(viewer);
    expect(await answersOf(fetches)).toEqual(gone);
  });
});
