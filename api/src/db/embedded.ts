import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

type WorkerMessage = { type: 'ready'; conn: string } | { type: 'stopped' } | { type: 'error'; message: string };

/**
 * The worker's whole program. PGlite executes every statement synchronously in WASM, so on the
 * API's own thread each query would stall every other request (seen: event-loop delays of 70 ms
 * and more under load); in a worker it runs beside the API on the other core, and the API reaches
 * it over loopback like any PostgreSQL server. Plain CommonJS, given as source text, so the
 * same code runs from the compiled API and from the TypeScript sources under test; the modules
 * are loaded by the absolute paths the parent resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pgliteModule);
const { PGLiteSocketServer } = require(workerData.socketModule);
(async () => {
  const db = await PGlite.create(workerData.dataDir ? { dataDir: workerData.dataDir } : {});
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message !== 'stop') return;
    try {
      await server.stop();
      await db.close();
      parentPort.postMessage({ type: 'stopped' });
    } catch (err) {
      parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
    }
  });
  parentPort.postMessage({ type: 'ready', conn: server.getServerConn() });
})().catch((err) => parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) }));
`;

function nextMessage(worker: Worker): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
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
 * Real PostgreSQL compiled to WASM, running in a worker thread and served on a loopback port so
 * the ordinary driver can use it (one connection: pool it with max 1). `dataDir` undefined keeps
 * it in memory (tests).
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // Creating the cluster (initdb) grows the WASM heap to about 900 MiB of resident memory, and
    // a WASM heap never shrinks; a restart serves from about 400 MiB. So the first start creates
    // it in a worker of its own and ends that worker, which releases its memory.
    await (await startWorker(dataDir)).stop();
  }
  return startWorker(dataDir);
}

async function startWorker(dataDir: string | undefined): Promise<EmbeddedDatabase> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      dataDir,
      pgliteModule: require.resolve('@electric-sql/pglite'),
      socketModule: require.resolve('@electric-sql/pglite-socket'),
    },
  });
  const started = await nextMessage(worker).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  if (started.type !== 'ready') {
    await worker.terminate();
    throw new Error(`The embedded database did not start: ${started.type === 'error' ? started.message : started.type}`);
  }
  let stopping: Promise<void> | null = null;
  return {
    url: `postgresql://postgres:postgres@${started.conn}/postgres?sslmode=disable`,
    stop() {
      stopping ??= (async () => {
        const stopped = nextMessage(worker);
        worker.postMessage('stop');
        try {
          const reply = await stopped;
          if (reply.type === 'error') throw new Error(`The embedded database did not stop cleanly: ${reply.message}`);
        } finally {
          await worker.terminate();
        }
      })();
      return stopping;
    },
  };
}
