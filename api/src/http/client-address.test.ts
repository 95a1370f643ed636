import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameOverTls, clientIp, TRUSTED_PROXIES } from './client-address.js';

/** What a server says of a request: Express's req.ip and req.secure, and ours, side by side. */
let url: string;
let server: Server;
beforeAll(async () => {
  const app = express();
  app.set('trust proxy', TRUSTED_PROXIES);
  app.get('/', (req, res) => {
    res.json({ express: [req.ip, req.secure], ours: [clientIp(req), cameOverTls(req)] });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function seen(headers: Record<string, string>) {
  return (await (await fetch(url, { headers })).json()) as { express: unknown[]; ours: unknown[] };
}

describe('the client address and scheme without Express', () => {
  it('are what Express says for a request from the proxy on this machine', async () => {
    const cases: [Record<string, string>, string, boolean][] = [
      [{}, '127.0.0.1', false],
      [{ 'x-forwarded-for': '203.0.113.7' }, '203.0.113.7', false],
      [{ 'x-forwarded-for': '203.0.113.7, 127.0.0.1' }, '203.0.113.7', false],
      // Only this machine is trusted: the nearest outside hop is the client, whatever it forwards.
      [{ 'x-forwarded-for': '198.51.100.9, 203.0.113.7' }, '203.0.113.7', false],
      [{ 'x-forwarded-proto': 'https' }, '127.0.0.1', true],
      [{ 'x-forwarded-proto': ' https , http' }, '127.0.0.1', true],
      [{ 'x-forwarded-proto': 'http' }, '127.0.0.1', false],
    ];
    for (const [headers, ip, secure] of cases) {
      const answer = await seen(headers);
      expect(answer.ours, JSON.stringify(headers)).toEqual([ip, secure]);
      expect(answer.express, JSON.stringify(headers)).toEqual(answer.ours);
    }
  });
});
