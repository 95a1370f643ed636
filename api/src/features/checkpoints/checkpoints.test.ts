import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, grantFile } from '../../test/library-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

type CheckpointBody = {
  id: string;
  fileId: string;
  userId: string;
  timestamp: number;
  name: string;
  description: string | null;
};

describe('checkpoints', () => {
  it("keeps each user's checkpoints to themselves, clamps the time and lets only the owner delete", async () => {
    const file = await createAudioFile(t, { duration: 90.7, isPublic: true });
    const alice = await signIn(t, (await createUser(t)).email);
    const bob = await signIn(t, (await createUser(t)).email);

    const created = await t.rest<{ data: CheckpointBody }>(
      'POST',
      '/checkpoints',
      { fileId: file.id, timestamp: 500, name: '  End  ', description: '' },
      alice,
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      fileId: file.id,
      userId: alice.userId,
      timestamp: 90,
      name: 'End',
      description: null,
    });
    const early = await t.gql<{ createCheckpoint: CheckpointBody }>(
      'mutation ($input: CreateCheckpointInput!) { createCheckpoint(input: $input) { id timestamp fileId userId } }',
      { input: { fileId: file.id, timestamp: -4.2, name: 'Start' } },
      alice,
    );
    expect(early.data?.createCheckpoint).toMatchObject({ timestamp: 0, userId: alice.userId });

    const aliceList = await t.rest<{ data: CheckpointBody[] }>('GET', `/checkpoints/file/${file.id}`, undefined, alice);
    expect(aliceList.body.data.map((c) => c.name)).toEqual(['Start', 'End']);
    const bobList = await t.gql<{ checkpoints: unknown[] }>(
      'query ($f: ID!) { checkpoints(fileId: $f) { id } }',
      { f: file.id },
      bob,
    );
    expect(bobList.data?.checkpoints).toEqual([]);

    // Another user's checkpoint answers as an unknown id: its existence is not Bob's to learn.
    const steal = await t.rest('DELETE', `/checkpoints/${created.body.data.id}`, undefined, bob);
    const unknown = await t.rest('DELETE', '/checkpoints/00000000-0000-4000-8000-000000000000', undefined, bob);
    expect([steal.status, steal.body.message]).toEqual([404, unknown.body.message]);
    expect((await t.rest('DELETE', `/checkpoints/${created.body.data.id}`, undefined, alice)).status).toBe(200);
    expect((await t.rest('DELETE', `/checkpoints/${created.body.data.id}`, undefined, alice)).status).toBe(404);
  });

  it('refuses blank names and files the caller may not see', async () => {
    const file = await createAudioFile(t, { isPublic: true });
    const hidden = await createAudioFile(t);
    const user = await createUser(t);
    const expired = await createAudioFile(t);
    await grantFile(t, user.id, [expired.id], { expiresAt: new Date(Date.now() - 1000) });
    const s = await signIn(t, user.email);
    const blank = await t.rest('POST', '/checkpoints', { fileId: file.id, timestamp: 1, name: '   ' }, s);
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ message: 'Name is required' });
    expect((await t.rest('POST', '/checkpoints', { fileId: hidden.id, timestamp: 1, name: 'x' }, s)).status).toBe(404);
    expect((await t.rest('GET', `/checkpoints/file/${expired.id}`, undefined, s)).status).toBe(404);
    expect((await t.rest('POST', '/checkpoints', { fileId: file.id, timestamp: 'soon', name: 'x' }, s)).status).toBe(
      400,
    );
  });
});
