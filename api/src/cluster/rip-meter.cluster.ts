import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageDirs } from '../features/files/storage-paths.js';
import { ClusterClient, type ReadResult, type Session } from './cluster-client.js';
import {
  auditEntries,
  clusterOf,
  countByReplica,
  createAccount,
  signInAdmin,
  USER_PASSWORD,
} from './cluster-fixtures.js';

/** One hour at 128 kbit/s, as api/src/features/rip-detection/rip-detection.test.ts pulls it on one server. */
const SIZE = 57_600_000;
const DURATION = 3600;
const RANGE = 1024 * 1024;

const cluster = clusterOf();
const { proxy } = cluster;
const replicaA = new ClusterClient(cluster.replicaUrls[0]);
let admin: Session;
let fileId: string;
beforeAll(async () => {
  admin = await signInAdmin(proxy);
  fileId = await createSizedAudioFile();
});
afterAll(() => {
  proxy.close();
  replicaA.close();
});

/**
 * A file row of SIZE bytes declaring DURATION seconds, written straight into the replicas' shared
 * DATA_DIR and database: rip detection reads only sizes and durations, and no upload makes an
 * hour of audio quickly.
 */
async function createSizedAudioFile(): Promise<string> {
  const id = randomUUID();
  const relative = path.join(storageDirs.audio, `${id}.mp3`);
  await mkdir(path.join(cluster.dataDir, storageDirs.audio), { recursive: true });
  await writeFile(path.join(cluster.dataDir, relative), Buffer.alloc(SIZE, 0x5a));
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into audio_files (id, title, filename, storage_path, size, duration, mime_type, is_public, created_at, updated_at)
       values ($1, 'Long book', 'book.mp3', $2, $3, $4, 'audio/mpeg', false, now(), now())`,
      [id, relative, SIZE, DURATION],
    );
  } finally {
    await db.end();
  }
  return id;
}

/** A new user granted the file, signed in, with a stream session open: its URL and proof cookie. */
async function listener(client: ClusterClient): Promise<{ userId: string; url: string; cookie: string }> {
  const account = await createAccount(proxy, admin);
  const grant = await proxy.rest('POST', '/admin/file-access', { userId: account.id, fileId }, admin);
  expect(grant.status).toBe(201);
  const session = await client.signIn(account.email, USER_PASSWORD);
  const opened = await client.rest<{ data: { streamUrl: string } }>(
    'POST',
    `/drm/session/${fileId}`,
    undefined,
    session,
  );
  expect(opened.status).toBe(200);
  const setCookie = opened.headers['set-cookie'] ?? [];
  const cookie = setCookie.find((c) => c.startsWith('stream_proof='))?.split(';')[0];
  if (!cookie) throw new Error(`no stream_proof cookie: ${JSON.stringify(setCookie)}`);
  return { userId: account.id, url: opened.body.data.streamUrl, cookie };
}

/** Every other 1 MiB range, then the ones between: each one a jump, none carrying on from the last. */
const JUMPING = Array.from({ length: Math.ceil(SIZE / RANGE) }, (_, k) => k)
  .sort((a, b) => (a % 2) - (b % 2) || a - b)
  .map((k) => k * RANGE);

/**
 * A script pulling the file in 1 MiB ranges, jumping, as fast as it can, until it has the whole
 * file or a range stalls: a range takes milliseconds, paced about a second, throttled about a minute.
 */
async function pullInRanges(client: ClusterClient, url: string, cookie: string) {
  const ranges: ReadResult[] = [];
  for (const from of JUMPING) {
    const range = `bytes=${from}-${Math.min(from + RANGE, SIZE) - 1}`;
    const read = await client.readBody(url, { cookie, range }, 2000);
    ranges.push(read);
    if (read.status !== 206 || !read.ended) break;
  }
  return { ranges, received: ranges.reduce((sum, r) => sum + r.received, 0) };
}

async function ripSuspected(userId: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await auditEntries(proxy, admin, 'stream.rip_suspected', userId);
    if (found.length > 0 || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What the one-server test asks of a ripper (held to under half of the file, flagged on the audit
 * log with its own address, its further ranges paced), asked of `client`'s path to the file.
 */
async function expectCaughtAsOnOneServer(client: ClusterClient, replicas: number): Promise<number> {
  const ripper = await listener(client);
  const pulled = await pullInRanges(client, ripper.url, ripper.cookie);
  const seen = {
    ranges: pulled.ranges.length,
    receivedMB: +(pulled.received / 1e6).toFixed(1),
    byReplica: countByReplica(pulled.ranges),
  };
  expect(
    pulled.ranges.every((r) => r.status === 206),
    JSON.stringify(seen),
  ).toBe(true);
  expect(Object.keys(seen.byReplica), JSON.stringify(seen)).toHaveLength(replicas);
  expect(pulled.received, JSON.stringify(seen)).toBeLessThan(SIZE * 0.5);

  const [entry] = await ripSuspected(ripper.userId, 5000);
  expect(entry?.details, JSON.stringify(seen)).toMatchObject({ fileId, addresses: [client.address] });

  // Further ranges, one to each replica behind nginx: paced to about real time (16 kB/s), not 1 MiB in 1.5 s.
  const later = await Promise.all(
    [0, 1].map((i) =>
      client.readBody(ripper.url, { cookie: ripper.cookie, range: `bytes=${i * RANGE}-${(i + 1) * RANGE - 1}` }, 1500),
    ),
  );
  for (const read of later) expect(read.received, JSON.stringify(later)).toBeLessThan(RANGE);
  return pulled.ranges.length;
}

/** Ranges the ripper got on one replica before it was stopped: the alternating one gets no more. */
let onOneServer = 0;

describe('rip detection across replicas', () => {
  it('flags and throttles a full-speed ripper on one replica (the baseline)', async () => {
    onOneServer = await expectCaughtAsOnOneServer(replicaA, 1);
  });

  it('flags and throttles a full-speed ripper whose ranges alternate between the replicas as fast', async () => {
    const alternating = await expectCaughtAsOnOneServer(proxy, 2);
    // One ledger for both: a replica learns of the other's ranges a round trip late, no more. Each
    // counting alone would let the ripper have about twice as many.
    expect(alternating).toBeLessThanOrEqual(onOneServer + 2);
  });
});
