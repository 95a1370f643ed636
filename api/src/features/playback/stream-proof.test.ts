import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones, streamProofCookie } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

let t: TestApp;
let file: AudioFile;
beforeAll(async () => {
  t = await startTestApp();
  file = await createStoredAudioFile(t, { seconds: 20 });
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

async function viewer(): Promise<Session> {
  const user = await createUser(t);
  await grantFile(t, user.id, file.id);
  return signIn(t, user.email);
}

/** A stream URL and a seek URL of one session, and the cookie its browser was given with them. */
async function urls(session: Session) {
  const opened = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${file.id}`, undefined, session);
  const seek = await t.rest<{ data: { signedUrl: string } }>(
    'POST',
    `/drm/signed-url/${file.id}`,
    { startTime: 5 },
    session,
  );
  const set = opened.headers.getSetCookie().find((c) => c.startsWith('stream_proof=')) ?? '';
  expect(set).toMatch(/; Path=\/api\/v1\/drm\/(;|$)/);
  expect(set).toMatch(/; HttpOnly/);
  expect(set).toMatch(/; SameSite=Strict/);
  return {
    stream: `${t.url}${opened.body.data.streamUrl}`,
    signed: `${t.url}${seek.body.data.signedUrl}`,
    cookie: streamProofCookie(opened.headers),
  };
}

const status = async (url: string, headers: Record<string, string> = {}) =>
  (await fetch(url, { headers: { range: 'bytes=0-99', ...headers } })).status;

describe('stream and seek URLs need the session they were issued to', () => {
  it('refuse a copied URL sent with no credentials or from another browser, and serve the player', async () => {
    const owner = await viewer();
    const { stream, signed, cookie } = await urls(owner);
    // Another browser context: its own signed-in user, with its own stream cookie.
    const stranger = await urls(await viewer());
    for (const url of [stream, signed]) {
      expect(await status(url)).toBe(403);
      expect(await status(url, { cookie: stranger.cookie })).toBe(403);
      expect(await status(url, { cookie: `stream_proof=${'A'.repeat(43)}` })).toBe(403);
      // The player: the audio element sends its cookie; a request filter could send the headers.
      expect(await status(url, { cookie })).toBe(206);
      expect(await status(url, { authorization: `Bearer ${owner.token}`, 'x-device-id': owner.deviceId })).toBe(206);
    }
  });

  it('sets the cookie when GraphQL opens the stream, and logout clears it and ends the URL', async () => {
    const owner = await viewer();
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${owner.token}`,
        'x-device-id': owner.deviceId,
      },
      body: JSON.stringify({
        query: 'mutation($id: ID!) { createStreamSession(fileId: $id) { streamUrl } }',
        variables: { id: file.id },
      }),
    });
    const body = (await res.json()) as { data: { createStreamSession: { streamUrl: string } } };
    const url = `${t.url}${body.data.createStreamSession.streamUrl}`;
    const cookie = streamProofCookie(res.headers);
    expect(await status(url, { cookie })).toBe(206);

    const logout = await t.rest('POST', '/auth/logout', undefined, owner);
    expect(logout.headers.getSetCookie().some((c) => /^stream_proof=;.*Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);
    expect(await status(url, { cookie })).toBe(403);
  });
});
