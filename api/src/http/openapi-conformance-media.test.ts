import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestAudio } from '../test/audio-fixtures.js';
import { parsePlaylist, waitForChaptersReady } from '../test/chapter-client.js';
import { newKey } from '../test/api-keys.js';
import { answeredOperations, contractCaller } from '../test/contract-check.js';
import { createAdminSession, createUser, signIn, type Session } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones, streamProofCookie } from '../test/stream-fixtures.js';
import { sha256, uploadForm } from '../test/upload-client.js';
import { apiRoutes } from '../compose/routes.js';

/**
 * The OpenAPI document tells the truth about the byte routes too: streams, chapters and uploads
 * are called for real and each answer is checked against the contract it was generated from.
 */

let t: TestApp;
let admin: Session;
let viewer: Session;
let fileId: string;
const call = contractCaller(() => t);
type Data<T> = { data: T };

/** The path under /api/v1 of a URL the API handed out. */
const apiPath = (url: string) => url.replace(/^(https?:\/\/[^/]+)?\/api\/v1/, '');

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const user = await createUser(t);
  viewer = await signIn(t, user.email);
  fileId = (await createStoredAudioFile(t, { seconds: 12 })).id;
  await grantFile(t, viewer.userId, fileId);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

describe('the REST contract of the byte routes', () => {
  it('holds for stream sessions, signed URLs and the audio behind them', async () => {
    await call('drmStatus', `/drm/status/${fileId}`, { as: viewer });
    const session = await call<Data<{ streamUrl: string }>>('createStreamSession', `/drm/session/${fileId}`, {
      as: viewer,
    });
    const stream = apiPath(session.body.data.streamUrl);
    const cookie = { cookie: streamProofCookie(session.headers) };
    expect((await call('streamAudio', stream, { headers: cookie })).status).toBe(200);
    expect((await call('streamAudio', stream, { headers: { ...cookie, range: 'bytes=0-99' } })).status).toBe(206);
    await call('streamAudio', stream, { headers: { ...cookie, range: 'bytes=99999999-' } });
    await call('checkStream', stream, { headers: cookie });
    await call('streamAudio', '/drm/stream/not-a-token', { headers: cookie });

    const signed = await call<Data<{ signedUrl: string }>>('createSignedUrl', `/drm/signed-url/${fileId}`, {
      as: viewer,
      body: { startTime: 2 },
    });
    await call('createSignedUrl', `/drm/signed-url/${fileId}`, { as: viewer, body: { startTime: -1 } });
    const seek = apiPath(signed.body.data.signedUrl);
    const seekCookie = { cookie: streamProofCookie(signed.headers) || cookie.cookie };
    await call('signedAudio', seek, { headers: seekCookie });
    await call('checkSignedAudio', seek, { headers: { ...seekCookie, range: 'bytes=0-9' } });
    await call('signedAudio', `/drm/signed/${fileId}?sid=x`, { headers: seekCookie });
  });

  it("holds for an API key's audio", async () => {
    const keyOf = async (userId: string) => `Bearer ${(await newKey(t, admin, userId, ['STREAM'])).secret}`;
    const key = { authorization: await keyOf(viewer.userId) };
    const audio = `/files/${fileId}/audio`;
    expect((await call('fileAudio', audio, { headers: key })).status).toBe(200);
    expect((await call('fileAudio', audio, { headers: { ...key, range: 'bytes=0-99' } })).status).toBe(206);
    expect((await call('fileAudio', audio, { headers: { ...key, range: 'bytes=99999999-' } })).status).toBe(416);
    expect((await call('checkFileAudio', audio, { headers: key })).status).toBe(200);
    expect((await call('fileAudio', audio, { as: viewer })).status).toBe(403);
    expect((await call('fileAudio', audio)).status).toBe(401);
    expect((await call('fileAudio', '/files/not-an-id/audio', { headers: key })).status).toBe(400);
    const stranger = { authorization: await keyOf((await createUser(t)).id) };
    expect((await call('fileAudio', audio, { headers: stranger })).status).toBe(404);
  });

  it('holds for chapters, from adding them to playing them', async () => {
    const base = `/files/${fileId}/chapters`;
    const chapters = [
      { label: 'One', startTime: 0, endTime: 6 },
      { label: 'Two', startTime: 6 },
    ];
    const created = await call<Data<{ id: string }[]>>('createChapters', base, { as: admin, body: { chapters } });
    await call('createChapters', base, { as: admin, body: { chapters: [] } });
    const [one, two] = created.body.data.map((c) => c.id);
    await call('listChapters', base, { as: admin });
    await call('listChapters', base, { as: viewer });
    await call('chapterStatus', `${base}/status`, { as: viewer });
    await call('updateChapter', `${base}/${two}`, { as: admin, body: { label: 'Second' } });
    await call('loadSampleChapters', `${base}/sample`, { as: admin });
    const bare = await createStoredAudioFile(t, { seconds: 12 });
    await call('loadSampleChapters', `/files/${bare.id}/chapters/sample`, { as: admin });
    await call('chapterStreamUrl', `${base}/${one}/stream-url`, { as: viewer });
    await call('finalizeChapters', `${base}/finalize`, { as: admin, body: { storageType: 'filesystem' } });
    await waitForChaptersReady(t, fileId, admin);

    const url = await call<Data<{ streamUrl: string }>>('chapterStreamUrl', `${base}/${one}/stream-url`, {
      as: viewer,
    });
    const playlistPath = apiPath(url.body.data.streamUrl);
    const playlist = await call<string>('chapterPlaylist', playlistPath, { as: viewer });
    await call('chapterPlaylist', playlistPath.replace(/sig=[^&]+/, 'sig=forged'), { as: viewer });
    await call('chapterPlaylist', playlistPath);
    const { keyUrl, segments } = parsePlaylist(playlist.body, `${t.url}${url.body.data.streamUrl}`);
    await call('chapterKey', apiPath(keyUrl), { as: viewer });
    await call('chapterKey', apiPath(keyUrl));
    await call('chapterSegment', apiPath(segments[0]));
    await call('chapterSegment', apiPath(segments[0]).replace(/\/\d+\.ts$/, '/999.ts'));
    await call('deleteChapter', `${base}/${two}`, { as: admin });
    await call('deleteChapter', `${base}/${two}`, { as: admin });
  });

  it('holds for direct and chunked uploads', async () => {
    const audio = await readFile(await generateTestAudio('wav', 1));
    const part = { bytes: audio, name: 'tone.wav', type: 'audio/wav' };
    await call('uploadFile', '/files', { as: admin, body: uploadForm({ title: 'Direct' }, { audio: part }) });
    await call('uploadFile', '/files', { as: admin, body: { title: 'JSON is refused' } });

    const init = { fileName: 'tone.wav', fileSize: audio.length, totalChunks: 1, fileHash: sha256(audio) };
    const started = await call<{ uploadId: string }>('initUpload', '/audio/upload/init', { as: admin, body: init });
    await call('initUpload', '/audio/upload/init', { as: admin, body: { ...init, totalChunks: 2 } });
    const id = started.body.uploadId;
    const headers = {
      'x-upload-id': id,
      'x-chunk-index': '0',
      'x-total-chunks': '1',
      'x-file-size': String(audio.length),
      'x-file-name': 'tone.wav',
    };
    const chunk = () => uploadForm({}, { chunk: { bytes: audio, name: 'blob' } });
    await call('uploadChunk', '/audio/upload/chunk', { as: admin, headers, body: chunk() });
    await call('uploadChunk', '/audio/upload/chunk', {
      as: admin,
      headers: { ...headers, 'x-chunk-index': '7' },
      body: chunk(),
    });
    await call('uploadStatus', `/audio/upload/status/${id}`, { as: admin });
    await call('finalizeUpload', `/audio/upload/finalize/${id}`, { as: admin, body: { title: 'Chunked' } });
    await call('finalizeUpload', `/audio/upload/finalize/${id}`, { as: admin, body: { title: 'Again' } });

    const parts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const part = await call<{ uploadId: string }>('initUpload', '/audio/upload/init', { as: admin, body: init });
      const partHeaders = { ...headers, 'x-upload-id': part.body.uploadId };
      await call('uploadChunk', '/audio/upload/chunk', { as: admin, headers: partHeaders, body: chunk() });
      parts.push(part.body.uploadId);
    }
    await call('joinBookUpload', '/audio/upload/book', { as: admin, body: { uploadIds: parts, title: 'Book' } });
    await call('joinBookUpload', '/audio/upload/book', { as: admin, body: { uploadIds: parts } });
    await call('joinBookUpload', '/audio/upload/book', { as: admin, body: { uploadIds: [randomUUID(), id] } });

    const other = await call<{ uploadId: string }>('initUpload', '/audio/upload/init', { as: admin, body: init });
    await call('cancelUpload', `/audio/upload/cancel/${other.body.uploadId}`, { as: admin });
    await call('cancelUpload', `/audio/upload/cancel/${other.body.uploadId}`, { as: admin });
  });

  it('has answered every operation of these groups with a success', () => {
    const groups = ['streaming', 'chapters', 'uploads'];
    const missed = apiRoutes.filter((r) => groups.includes(r.tag) && !answeredOperations.has(r.operationId));
    expect(missed.map((r) => r.operationId)).toEqual([]);
  });
});
