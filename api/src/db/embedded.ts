import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { copyTemplate, hasCluster } from './embedded-template.js';
import type { EmbeddedWorkerData, EmbeddedWorkerMessage } from './embedded-worker.js';

/**
 * How the `pg` driver reaches the embedded server, which has no TCP port: `host` is the directory
 * of its Unix socket and `port` only names the socket file in it (`.s.PGSQL.<port>`).
 */
export interface EmbeddedConnection {
  host: string;
  port: number;
  user: string;
  database: string;
}

export interface EmbeddedDatabase {
  connection: EmbeddedConnection;
  stop(): Promise<void>;
}

/** Names the socket file as PostgreSQL does; no TCP port is opened. */
const SOCKET_PORT = 5432;
/** A Unix socket path holds 107 bytes on Linux (sun_path is 108 with the closing NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * PGlite executes every statement synchronously in WASM, so on the API's own thread each query
 * would stall every other request (seen: event-loop delays of 70 ms and more under load); in a
 * worker (embedded-worker.ts) it runs beside the API on the other core, and the API reaches it
 * over a Unix socket like any PostgreSQL server.
 */
const workerProgram = new URL('./embedded-worker.js', import.meta.url);

/**
 * The worker's JavaScript only passes bytes between the socket and the WASM heap: a 4 MiB young
 * generation instead of V8's default 16-32 MiB. Measured: idle RSS after a restart 253-281 MiB
 * without it, 238-241 with it (two runs each, same machine and hour).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

function nextMessage(worker: Worker): Promise<EmbeddedWorkerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: EmbeddedWorkerMessage) => {
      cleanup();
      resolve(message);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`The embedded database stopped unexpectedly (worker exit code ${code})`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

/**
 * The server asks for no password, so its socket lives in a directory only this user may enter:
 * next to the data folder, or a temporary one when there is none or that path is too long.
 */
function socketDirFor(dataDir: string | undefined): { dir: string; temporary: boolean } {
  const dir = dataDir && `${dataDir}-socket`;
  if (dir && Buffer.byteLength(socketFileIn(dir)) <= MAX_SOCKET_PATH) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    return { dir, temporary: false };
  }
  return { dir: mkdtempSync(path.join(tmpdir(), 'pal-db-')), temporary: true };
}

function socketFileIn(dir: string): string {
  return path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
}

/** A killed process leaves its socket file behind; a live one still answers and keeps it. */
async function removeStaleSocket(file: string): Promise<void> {
  if (!existsSync(file)) return;
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(file, () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`Another process is serving the embedded database at ${file}: stop it first`);
  rmSync(file, { force: true });
}

/**
 * Real PostgreSQL compiled to WASM, running in a worker thread and served on a Unix socket so the
 * ordinary driver can use it (one connection: pool it with max 1). `dataDir` undefined keeps it
 * in memory (tests). `template: false` makes a new cluster without the template's migrations (a
 * restore rebuilds an older schema first).
 */
export async function startEmbeddedDatabase(
  dataDir?: string,
  options: { template?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const copied = async (dir: string) => options.template !== false && (await copyTemplate(dir));
  if (dataDir && !hasCluster(dataDir) && !(await copied(dataDir))) {
    // Creating the cluster (initdb) grows the WASM heap to about 900 MiB of resident memory, and
    // a WASM heap never shrinks. Without a template to copy, the first start creates it in a
    // worker of its own and ends that worker, which releases its memory.
    await (await startWorker(dataDir)).stop();
  }
  return startWorker(dataDir);
}

async function startWorker(dataDir: string | undefined): Promise<EmbeddedDatabase> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const socket = socketDirFor(dataDir);
  const socketFile = socketFileIn(socket.dir);
  await removeStaleSocket(socketFile);
  const removeSocket = () => rmSync(socket.temporary ? socket.dir : socketFile, { recursive: true, force: true });
  const workerData: EmbeddedWorkerData = { dataDir, socketPath: socketFile };
  const worker = new Worker(workerProgram, { workerData, resourceLimits: WORKER_LIMITS });
  const started = await nextMessage(worker).catch(async (err: unknown) => {
    await worker.terminate();
    removeSocket();
    throw err;
  });
  if (started.type !== 'ready') {
    await worker.terminate();
    removeSocket();
    throw new Error(
      `The embedded database did not start: ${started.type === 'error' ? started.message : started.type}`,
    );
  }
  let stopping: Promise<void> | null = null;
  return {
    connection: { host: socket.dir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' },
    stop() {
      stopping ??= (async () => {
        const stopped = nextMessage(worker);
        worker.postMessage('stop');
        try {
          const reply = await stopped;
          if (reply.type === 'error') throw new Error(`The embedded database did not stop cleanly: ${reply.message}`);
        } finally {
          await worker.terminate();
          removeSocket();
        }
      })();
      return stopping;
    },
  };
}
