import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { listeningSockets } from '../test/listening-sockets.js';
import { copyTemplate } from './embedded-template.js';
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

describe('the build-time template', () => {
  it('is copied whole into a new data folder, through a folder renamed into place', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'pal-template-'));
    try {
      const template = path.join(root, 'template');
      mkdirSync(path.join(template, 'base'), { recursive: true });
      writeFileSync(path.join(template, 'PG_VERSION'), '17\n');
      writeFileSync(path.join(template, 'base', 'relation'), 'rows');
      const dataDir = path.join(root, 'library', 'pgdata');
      // What a start cut off during an earlier copy leaves behind.
      mkdirSync(`${dataDir}.partial`, { recursive: true });
      writeFileSync(path.join(`${dataDir}.partial`, 'half'), '');

      expect(await copyTemplate(dataDir, template)).toBe(true);
      expect(readFileSync(path.join(dataDir, 'base', 'relation'), 'utf8')).toBe('rows');
      expect(existsSync(path.join(dataDir, 'half'))).toBe(false);
      expect(existsSync(`${dataDir}.partial`)).toBe(false);
      expect(await copyTemplate(path.join(root, 'other'), path.join(root, 'no-template'))).toBe(false);
      expect(existsSync(path.join(root, 'other'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
