import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile } from '../../test/library-fixtures.js';

let t: TestApp;
let stranger: Session;
let hiddenId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
beforeAll(async () => {
  t = await startTestApp();
  hiddenId = (await createAudioFile(t, { isPublic: false })).id;
  stranger = await signIn(t, (await createUser(t)).email);
});
afterAll(async () => {
  await t?.close();
});

type Call = (fileId: string) => [method: string, route: string, body?: unknown];

/** The status and message a call answers for the hidden file and for an id no file has. */
async function answers(call: Call) {
  const [hidden, unknown] = await Promise.all(
    [hiddenId, UNKNOWN].map(async (id) => {
      const [method, route, body] = call(id);
      const res = await t.rest<{ message?: string }>(method, route, body, stranger);
      return [res.status, res.body.message];
    }),
  );
  return { hidden, unknown };
}

const calls: [string, Call][] = [
  ['GET /drm/status', (id) => ['GET', `/drm/status/${id}`]],
  ['POST /drm/signed-url', (id) => ['POST', `/drm/signed-url/${id}`, { startTime: 0 }]],
  ['POST chapter stream-url', (id) => ['POST', `/files/${id}/chapters/${UNKNOWN}/stream-url`, {}]],
  ['GET /checkpoints/file', (id) => ['GET', `/checkpoints/file/${id}`]],
  ['POST /checkpoints', (id) => ['POST', '/checkpoints', { fileId: id, timestamp: 1, name: 'Here' }]],
];

describe('a file the caller cannot see', () => {
  it.each(calls)('%s answers as for an unknown id (404)', async (_name, call) => {
    const { hidden, unknown } = await answers(call);
    expect(hidden[0]).toBe(404);
    expect(hidden).toEqual(unknown);
  });

  it("opening a stream session answers the spec's 403 text, which the player shows", async () => {
    const res = await t.rest('POST', `/drm/session/${hiddenId}`, undefined, stranger);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: 'Access denied. You do not have permission to access this file.' });
  });
});
