import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { listeningSockets } from '../test/listening-sockets.js';
import { startEmbeddedDatabase } from './embedded.js';

describe('embedded database', () => {
  it('listens on no TCP port, only on a socket in a folder only its user may enter, removed on stop', async () => {
    const tcpBefore = listeningSockets('self').tcpPorts;
    const db = await startEmbeddedDatabase();
    const { host, port } = db.connection;
    const socketFile = path.join(host, `.s.PGSQL.${port}`);
    try {
      expect(statSync(host).mode & 0o777).toBe(0o700);
      expect(statSync(socketFile).isSocket()).toBe(true);
      const listening = listeningSockets('self');
      expect(listening.tcpPorts).toEqual(tcpBefore);
      expect(listening.unixPaths).toContain(socketFile);
      const client = new pg.Client(db.connection);
      await client.connect();
      try {
        expect((await client.query('select 6 * 7 as answer')).rows).toEqual([{ answer: 42 }]);
      } finally {
        await client.end();
      }
    } finally {
      await db.stop();
    }
    // No data folder: the socket's folder was a temporary one, gone with the server.
    expect(existsSync(host)).toBe(false);
  });
});
