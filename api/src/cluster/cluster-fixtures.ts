import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { storageDirs } from '../features/files/storage-paths.js';
import { ClusterClient, type Session } from './cluster-client.js';
import { UPSTREAM_HEADER } from './nginx.js';

export const USER_PASSWORD = 'cluster-user-password';

/** The cluster the global setup started, and a client of nginx from an address of its own. */
export function clusterOf() {
  const cluster = inject('cluster');
  return { ...cluster, proxy: new ClusterClient(cluster.proxyUrl) };
}

/** The administrator the first replica created (ADMIN_EMAIL), signed in through `client`. */
export function signInAdmin(client: ClusterClient): Promise<Session> {
  const { adminEmail, adminPassword } = inject('cluster');
  return client.signIn(adminEmail, adminPassword);
}

/** A new account, made by the administrator through the API; its password is USER_PASSWORD. */
export async function createAccount(client: ClusterClient, admin: Session): Promise<{ id: string; email: string }> {
  const email = `cluster-${randomUUID()}@example.com`;
  const res = await client.rest<{ data: { id: string } }>(
    'POST',
    '/admin/users',
    { name: 'Cluster User', email, password: USER_PASSWORD, role: 'user' },
    admin,
  );
  if (res.status !== 201) throw new Error(`creating ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, email };
}

export interface AuditItem {
  action: string;
  userId: string | null;
  details: Record<string, unknown> | null;
}

/** The newest audit entries of one action about one user (admin query auditLog). */
export async function auditEntries(
  client: ClusterClient,
  admin: Session,
  action: string,
  userId: string,
): Promise<AuditItem[]> {
  const res = await client.gql<{ auditLog: { items: AuditItem[] } }>(
    '{ auditLog(offset: 0, limit: 100) { items { action userId details } } }',
    {},
    admin,
  );
  if (!res.body.data) throw new Error(`auditLog: ${JSON.stringify(res.body.errors)}`);
  return res.body.data.auditLog.items.filter((e) => e.action === action && e.userId === userId);
}

/** How many answers each replica gave ("replica a", "replica b"), by nginx's upstream header. */
export function countByReplica(answers: { upstream: string | null }[]): Record<string, number> {
  const { replicaUrls } = inject('cluster');
  const names = new Map(replicaUrls.map((url, i) => [new URL(url).host, `replica ${'ab'[i]}`]));
  const counts: Record<string, number> = {};
  for (const { upstream } of answers) {
    const name = upstream === null ? 'direct' : (names.get(upstream) ?? upstream);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** Runs `work` with a client of the replicas' database, for fixtures and checks no route offers. */
export async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: inject('cluster').databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/**
 * A file row of `size` bytes declaring `duration` seconds, written straight into the replicas'
 * shared DATA_DIR and database: streaming reads only sizes and durations, and no upload makes an
 * hour of audio quickly.
 */
export async function createSizedAudioFile(size: number, duration: number): Promise<string> {
  const { dataDir } = inject('cluster');
  const id = randomUUID();
  const relative = path.join(storageDirs.audio, `${id}.mp3`);
  await mkdir(path.join(dataDir, storageDirs.audio), { recursive: true });
  await writeFile(path.join(dataDir, relative), Buffer.alloc(size, 0x5a));
  await withDatabase((db) =>
    db.query(
      `insert into audio_files (id, title, filename, storage_path, size, duration, mime_type, is_public, created_at, updated_at)
       values ($1, 'Long book', 'book.mp3', $2, $3, $4, 'audio/mpeg', false, now(), now())`,
      [id, relative, size, duration],
    ),
  );
  return id;
}

export interface Listener {
  userId: string;
  session: Session;
  /** The stream session's URL, and the proof cookie its ranges need. */
  url: string;
  cookie: string;
}

/** A new user granted `fileId`, signed in through `client`, with a stream session open. */
export async function openListener(client: ClusterClient, admin: Session, fileId: string): Promise<Listener> {
  const proxy = new ClusterClient(inject('cluster').proxyUrl);
  try {
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
    return { userId: account.id, session, url: opened.body.data.streamUrl, cookie };
  } finally {
    proxy.close();
  }
}

/** Kills the replica nginx named as `upstream` (host:port) with SIGKILL; the global setup starts it again. */
export function killReplica(upstream: string): void {
  const port = new URL(`http://${upstream}`).port;
  const pid = Number(readFileSync(path.join(inject('cluster').pidDir, port), 'utf8'));
  process.kill(pid, 'SIGKILL');
}

/** The replica (its upstream, host:port) whose process is `pid`, or null: read from pidDir. */
export function replicaOfPid(pid: number): string | null {
  const { pidDir, replicaUrls } = inject('cluster');
  for (const url of replicaUrls) {
    const { host, port } = new URL(url);
    const held = Number(readFileSync(path.join(pidDir, port), 'utf8'));
    if (held === pid) return host;
  }
  return null;
}

/** Processes whose command line mentions `needle`, with their parent's id. */
export function processesMentioning(needle: string): { pid: number; parent: number; cmdline: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (!cmdline.includes(needle)) return [];
        // The parent's id is the 4th field of stat, after the command name in parentheses.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return [{ pid: Number(pid), parent, cmdline }];
      } catch {
        return [];
      }
    });
}

/**
 * Waits until nginx sends requests to every replica again (one killed is being started again): it
 * skips a replica that refused a connection for its fail_timeout (10 s), and the files after this
 * one count on round-robin over both.
 */
export async function waitForAllReplicas(timeoutMs = 90_000): Promise<void> {
  const { proxyUrl, replicaUrls } = inject('cluster');
  const hosts = new Set(replicaUrls.map((url) => new URL(url).host));
  const deadline = Date.now() + timeoutMs;
  // Two answers in a row, one from each replica: round-robin over both.
  let last: string | null = null;
  for (;;) {
    const upstream = await fetch(`${proxyUrl}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
      (res) => (res.ok ? res.headers.get(UPSTREAM_HEADER) : null),
      () => null,
    );
    if (upstream && last && hosts.has(upstream) && hosts.has(last) && upstream !== last) return;
    last = upstream;
    if (Date.now() > deadline) throw new Error(`nginx did not use both replicas again within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What a crash or an unfinished request could leave half-written on the shared disk: audio files
 * no row points to, and upload folders of no active upload.
 */
export async function halfWritten(): Promise<{ strayAudio: string[]; strayUploadDirs: string[] }> {
  const { dataDir } = inject('cluster');
  const list = (dir: string) => readdir(path.join(dataDir, dir)).catch(() => [] as string[]);
  const [audio, uploads] = await Promise.all([list(storageDirs.audio), list(storageDirs.uploads)]);
  return withDatabase(async (db) => {
    const stored = await db.query<{ storage_path: string }>('select storage_path from audio_files');
    const known = new Set(stored.rows.map((r) => path.basename(r.storage_path)));
    const active = await db.query<{ id: string }>(`select id from upload_sessions where status = 'active'`);
    const open = new Set(active.rows.map((r) => r.id));
    return {
      strayAudio: audio.filter((name) => !known.has(name)),
      strayUploadDirs: uploads.filter((name) => !open.has(name)),
    };
  });
}
