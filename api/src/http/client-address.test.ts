import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { cameOverTls, clientIp } from './client-address.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

/** A server that says of each request what Express's req.ip and req.secure say, and ours, side by side. */
async function serverTrusting(trustProxy: string | undefined): Promise<string> {
  const { trustProxy: trust } = loadConfig({
    DATA_DIR: tmpdir(),
    SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}),
  });
  const app = express();
  app.set('trust proxy', trust);
  app.get('/', (req, res) => {
    res.json({ express: [req.ip, req.secure], ours: [clientIp(req, trust), cameOverTls(req, trust)] });
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
}

async function expectSeen(url: string, cases: [Record<string, string>, string, boolean][]) {
  for (const [headers, ip, secure] of cases) {
    const answer = (await (await fetch(url, { headers })).json()) as { express: unknown[]; ours: unknown[] };
    expect(answer.ours, JSON.stringify(headers)).toEqual([ip, secure]);
    expect(answer.express, JSON.stringify(headers)).toEqual(answer.ours);
  }
}

describe('the client address and scheme without Express', () => {
  it('are what Express says for a request from a trusted proxy on this machine', async () => {
    await expectSeen(await serverTrusting('loopback'), [
      [{}, '127.0.0.1', false],
      [{ 'x-forwarded-for': '203.0.113.7' }, '203.0.113.7', false],
      [{ 'x-forwarded-for': '203.0.113.7, 127.0.0.1' }, '203.0.113.7', false],
      // Only this machine is trusted: the nearest outside hop is the client, whatever it forwards.
      [{ 'x-forwarded-for': '198.51.100.9, 203.0.113.7' }, '203.0.113.7', false],
      [{ 'x-forwarded-proto': 'https' }, '127.0.0.1', true],
      [{ 'x-forwarded-proto': ' https , http' }, '127.0.0.1', true],
      [{ 'x-forwarded-proto': 'http' }, '127.0.0.1', false],
    ]);
  });

  it('ignore forwarding headers by default: no proxy is trusted, not even one on this machine', async () => {
    await expectSeen(await serverTrusting(undefined), [
      [{}, '127.0.0.1', false],
      [{ 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1', false],
      [{ 'x-forwarded-for': '198.51.100.9, 203.0.113.7' }, '127.0.0.1', false],
      [{ 'x-forwarded-proto': 'https' }, '127.0.0.1', false],
    ]);
  });

  it('ignore them from a machine that is not the named proxy', async () => {
    await expectSeen(await serverTrusting('10.0.0.0/8, 192.0.2.1'), [
      [{ 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1', false],
      [{ 'x-forwarded-proto': 'https' }, '127.0.0.1', false],
    ]);
  });
});
