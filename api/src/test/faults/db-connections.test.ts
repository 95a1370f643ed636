import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chapter } from '../../features/chapters/chapter.entity.js';
import { createTestDatabase } from '../database.js';
import { createAdminSession, type Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { expectNoLeak } from '../hostile/response-checks.js';
import { createAudioFile } from '../library-fixtures.js';

/**
 * PostgreSQL drops every connection of the app (pg_terminate_backend, as a restart or a failover
 * would) while clients are reading and writing. This needs a real server: the machine's, or the
 * one named by DATABASE_URL.
 */

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestApp;
let admin: Session;
let fileId: string;

beforeAll(async () => {
  db = await createTestDatabase(serverUrl);
  t = await startTestApp({ databaseUrl: db.url });
  admin = await createAdminSession(t);
  fileId = (await createAudioFile(t, { duration: 1_000_000 })).id;
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** Ends every connection the app holds, from an administrator's connection of its own. */
async function dropAppConnections(): Promise<number> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const res = await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [new URL(db.url ?? '').pathname.slice(1)],
    );
    return res.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

interface Outcome {
  status: number;
  text: string;
}

let batch = 0;
/** One write of three chapters in one transaction: all three rows exist or none. */
async function addThreeChapters(): Promise<Outcome & { label: string }> {
  const n = ++batch;
  const label = `batch-${n}`;
  const chapters = [0, 1, 2].map((i) => ({
    label: `${label}-${i}`,
    startTime: n * 10 + i * 3,
    endTime: n * 10 + i * 3 + 3,
  }));
  const res = await t.rest('POST', `/files/${fileId}/chapters`, { chapters }, admin);
  return { status: res.status, text: JSON.stringify(res.body), label };
}

async function readLibrary(): Promise<Outcome> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${admin.token}`,
      'x-device-id': admin.deviceId,
    },
    body: JSON.stringify({ query: '{ audioFiles(limit: 20) { total items { id title chapters { id } } } }' }),
  });
  const text = await res.text();
  // GraphQL answers 200 with errors: count an error answer as a failure.
  return { status: res.ok && !text.includes('"errors"') ? res.status : Math.max(res.status, 500), text };
}

describe('PostgreSQL drops the connections under load', () => {
  it('fails in-flight requests cleanly, reconnects by itself and leaves no half-written rows', async () => {
    const outcomes: Outcome[] = [];
    const writes: (Outcome & { label: string })[] = [];
    let running = true;
    const worker = async (i: number) => {
      while (running) {
        if (i % 2 === 0) writes.push(await addThreeChapters());
        else outcomes.push(await readLibrary());
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => worker(i));
    let dropped = 0;
    for (const wait of [400, 500, 500]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      dropped += await dropAppConnections();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all(workers);
    expect(dropped, 'the fault reached the app').toBeGreaterThan(0);

    // In flight: a clean answer either way; a 5xx carries the error body, never a stack or SQL.
    for (const o of [...outcomes, ...writes]) {
      expectNoLeak(o.text, `${o.status} ${o.text.slice(0, 200)}`);
      if (o.status >= 500)
        expect(o.text, o.text.slice(0, 200)).toMatch(/"code":"INTERNAL"|"code":"INTERNAL_SERVER_ERROR"/);
    }

    // Afterwards it works again by itself, every time.
    for (let i = 0; i < 10; i++) {
      const read = await readLibrary();
      expect(read.status, read.text.slice(0, 300)).toBe(200);
      const write = await addThreeChapters();
      expect(write.status, write.text.slice(0, 300)).toBe(201);
      writes.push(write);
    }

    // All or nothing per transaction, and every acknowledged write is there.
    const rows = await t.app.orm.em.fork().find(Chapter, { file: fileId });
    for (const w of writes) {
      const count = rows.filter((c) => c.label.startsWith(`${w.label}-`)).length;
      expect([0, 3], `${w.label} (${w.status})`).toContain(count);
      if (w.status === 201) expect(count, w.label).toBe(3);
    }
  }, 60_000);
});
