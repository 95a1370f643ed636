import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFiles } from '../../test/library-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('dashboard statistics', () => {
  it('counts users and files, sums duration and size, and lists the newest uploads', async () => {
    const admin = await createAdminSession(t);
    await createUser(t);
    await createAudioFiles(t, 2, { isPublic: true, duration: 60.5, size: 1000 });
    const newest = await createAudioFiles(t, 5, { duration: 10, size: 10, createdAt: new Date(Date.now() + 60_000) });
    const res = await t.rest<{
      data: Record<string, unknown> & { recentUploads: { id: string; title: string; filename: string }[] };
    }>('GET', '/admin/files/stats', undefined, admin);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    expect(res.body.data).toMatchObject({
      userCount: 2,
      fileCount: 7,
      publicFiles: 2,
      privateFiles: 5,
      totalDuration: 171,
      totalSize: 2050,
    });
    expect(res.body.data.recentUploads.map((f) => f.id).sort()).toEqual(newest.map((f) => f.id).sort());
    expect(res.body.data.recentUploads[0]).toHaveProperty('filename');
    const gql = await t.gql<{ dashboardStats: { fileCount: number; recentUploads: { title: string }[] } }>(
      '{ dashboardStats { fileCount recentUploads { title duration createdAt } } }',
      {},
      admin,
    );
    expect(gql.data?.dashboardStats.fileCount).toBe(7);

    const user = await signIn(t, (await createUser(t)).email);
    expect((await t.rest('GET', '/admin/files/stats', undefined, user)).status).toBe(403);
  });
});
