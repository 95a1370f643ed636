import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL compiled to WASM, served on a loopback port so the ordinary driver can use it.
 * `dataDir` undefined keeps it in memory (tests).
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgresql://postgres:postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
