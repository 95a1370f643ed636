import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadResult, Session } from './cluster-client.js';
import {
  clusterOf,
  createSizedAudioFile,
  halfWritten,
  killReplica,
  openListener,
  signInAdmin,
  waitForAllReplicas,
} from './cluster-fixtures.js';

/** A small book: 16 MB over 1000 s, read in 64 KiB ranges, far below what rip detection flags. */
const SIZE = 16_000_000;
const DURATION = 1000;
const RANGE = 64 * 1024;

const cluster = clusterOf();
const { proxy } = cluster;
let admin: Session;
let fileId: string;
beforeAll(async () => {
  admin = await signInAdmin(proxy);
  fileId = await createSizedAudioFile(SIZE, DURATION);
});
afterAll(async () => {
  // The killed replica is started again by the global setup: the files after this one get both.
  await waitForAllReplicas();
  proxy.close();
});

describe('a replica killed under a listener', () => {
  it('lets the listener resume on the other replica within seconds, with the position kept', async () => {
    const listener = await openListener(proxy, admin, fileId);
    const readRange = (k: number) =>
      proxy.readBody(
        listener.url,
        { cookie: listener.cookie, range: `bytes=${k * RANGE}-${(k + 1) * RANGE - 1}` },
        5000,
      );

    const first = await readRange(0);
    expect(first).toMatchObject({ status: 206, received: RANGE, ended: true });
    const saved = await proxy.rest('PUT', `/progress/${fileId}`, { position: 42 }, listener.session);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // The replica that served the stream dies as a crash would: no shutdown, connections cut.
    killReplica(first.upstream as string);
    const killedAt = performance.now();
    const after: ReadResult[] = [];
    // Several ranges, so round-robin sends at least one to the dead replica: nginx passes it on.
    for (let k = 1; k <= 4; k++) after.push(await readRange(k));
    const resumedWithinMs = performance.now() - killedAt;

    const seen = JSON.stringify({ first: first.upstream, after, resumedWithinMs });
    for (const read of after) expect(read, seen).toMatchObject({ status: 206, received: RANGE, ended: true });
    // nginx names every replica it tried, the one that answered last: all answered by the survivor,
    // and one first tried on the dead replica (connection refused), then passed on.
    const survivor = cluster.replicaUrls.map((url) => new URL(url).host).find((host) => host !== first.upstream);
    expect(new Set(after.map((r) => r.upstream?.split(', ').at(-1))), seen).toEqual(new Set([survivor]));
    expect(
      after.map((r) => r.upstream),
      seen,
    ).toContain(`${first.upstream}, ${survivor}`);
    expect(resumedWithinMs, seen).toBeLessThan(5000);

    // The position saved before the kill is still there, read and moved on through the survivor.
    const kept = await proxy.rest<{ data: { position: number } | null }>(
      'GET',
      `/progress/${fileId}`,
      undefined,
      listener.session,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.data?.position).toBe(42);
    const moved = await proxy.rest('PUT', `/progress/${fileId}`, { position: 50 }, listener.session);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    // Nothing half-written on the shared disk by the replica that died.
    expect(await halfWritten()).toEqual({ strayAudio: [], strayUploadDirs: [] });
  });
});
