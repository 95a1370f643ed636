import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';

/**
 * A balancer keeps its connections to the server open between requests (nginx and cloud
 * balancers for 60 s) and reuses them: the server must not close one first.
 */

/** One TCP connection on which requests go one after another, as a balancer's do. */
async function openConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = '';
  let closed = false;
  let wake = () => {};
  socket.on('data', (data) => {
    received += data.toString();
    wake();
  });
  socket.on('error', () => {}); // a reset shows as a close
  socket.on('close', () => {
    closed = true;
    wake();
  });
  return {
    isClosed: () => closed,
    /** The answer's head (status line and headers), or null when the server closed the connection. */
    async get(path: string): Promise<string | null> {
      received = '';
      if (closed) return null;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? -1);
        if (end >= 0 && received.length >= end + 4 + length) return received.slice(0, end);
        if (closed) return null;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close: () => socket.destroy(),
  };
}

describe('server timeouts, on the defaults', () => {
  let t: TestApp & { databaseUrl?: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps idle connections 65 s, waits 66 s for headers and sets no limit on a whole request', () => {
    const { server } = t.app;
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.headersTimeout).toBe(66_000);
    expect(server.requestTimeout).toBe(0);
  });

  it('answers the next request on a connection left idle for 8 s, and says how long it keeps it', async () => {
    const connection = await openConnection(t.url);
    try {
      const first = await connection.get('/healthz');
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first).toMatch(/^keep-alive: timeout=65$/im);
      // Longer than Node's own 5 s (and its 1 s of grace), which closed the connection here.
      await sleep(8000);
      expect(connection.isClosed()).toBe(false);
      expect(await connection.get('/healthz')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      connection.close();
    }
  }, 20_000);
});

describe('KEEP_ALIVE_TIMEOUT_SECONDS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { KEEP_ALIVE_TIMEOUT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('closes a connection idle for longer', async () => {
    const connection = await openConnection(t.url);
    try {
      expect(t.app.server.headersTimeout).toBe(2000);
      expect(await connection.get('/healthz')).toMatch(/^keep-alive: timeout=1$/im);
      // Node adds a second of grace to the timeout before it closes.
      await sleep(3000);
      expect(connection.isClosed()).toBe(true);
    } finally {
      connection.close();
    }
  });
});
