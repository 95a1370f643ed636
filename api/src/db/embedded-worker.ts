import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { parentPort, workerData } from 'node:worker_threads';

/** What embedded.ts starts this worker with. */
export interface EmbeddedWorkerData {
  /** Undefined keeps the database in memory. */
  dataDir: string | undefined;
  socketPath: string;
}

/** The worker's answers: once started, and to the one request it takes, 'stop'. */
export type EmbeddedWorkerMessage = { type: 'ready' } | { type: 'stopped' } | { type: 'error'; message: string };

if (!parentPort) throw new Error('embedded-worker runs on a worker thread (see embedded.ts)');
const port = parentPort;
const { dataDir, socketPath } = workerData as EmbeddedWorkerData;

/**
 * PostgreSQL's defaults size its memory for a server of its own (shared_buffers 128MB). Here it is
 * WASM heap, which never shrinks, in the API's own process; the library's working set is a few
 * thousand rows, and the operating system still caches the files. Measured on the 2-core machine:
 * a reopened database at 169 MiB resident instead of 310.
 */
const SETTINGS = ['shared_buffers=16MB', 'wal_buffers=1MB', 'work_mem=4MB', 'maintenance_work_mem=16MB'];

const tell = (message: EmbeddedWorkerMessage) => port.postMessage(message);
const failed = (err: unknown) => tell({ type: 'error', message: err instanceof Error ? err.message : String(err) });

async function serve(): Promise<void> {
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), postgresqlconf: SETTINGS });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  port.on('message', async (message: unknown) => {
    if (message !== 'stop') return;
    try {
      await server.stop();
      await db.close();
      tell({ type: 'stopped' });
    } catch (err) {
      failed(err);
    }
  });
  tell({ type: 'ready' });
}

serve().catch(failed);
