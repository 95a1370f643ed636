import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type Session } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones } from '../test/stream-fixtures.js';
import { compressAnswers } from './compression.js';
import { webApp } from './web-app.js';

const ASSET = '/assets/index-C0ffee12.js';
// Long enough to be worth compressing, as every chunk of the real build is.
const script = `export const greeting = ${JSON.stringify('Hello from the library. '.repeat(200))};\n`;
const indexHtml = '<!doctype html><html><head><title>Protected Audio Library</title></head><body></body></html>';
const robots = 'User-agent: *\nDisallow: /\n';

/** A build as Vite and web/build/precompress.ts leave it: fingerprinted assets with .br and .gz copies. */
function fakeBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'pal-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), indexHtml);
  writeFileSync(path.join(dist, 'robots.txt'), robots);
  writeFileSync(path.join(dist, ASSET), script);
  writeFileSync(path.join(dist, `${ASSET}.br`), brotliCompressSync(script));
  writeFileSync(path.join(dist, `${ASSET}.gz`), gzipSync(script));
  return dist;
}

describe('the web app as the API serves it', () => {
  let dist: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    dist = fakeBuild();
    // The same two middlewares, in the same order, as app.ts.
    const app = express().use(compressAnswers()).use(webApp(dist));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a script brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const res = await fetch(`${base}${ASSET}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await res.text()).toBe(script);
  });

  it('sends gzip to a browser without brotli, and the plain file to one that accepts neither', async () => {
    const gz = await fetch(`${base}${ASSET}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(script);
    const plain = await fetch(`${base}${ASSET}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(script)));
    expect(await plain.text()).toBe(script);
  });

  it('revalidates index.html on every visit, and answers /robots.txt with the file, not the app page', async () => {
    const page = await fetch(`${base}/player/abc`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe(indexHtml);
    const res = await fetch(`${base}/robots.txt`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('cache-control')).not.toMatch(/immutable/);
    expect(await res.text()).toBe(robots);
  });
});

describe('compression of API answers', () => {
  let t: TestApp;
  let session: Session;
  let streamUrl: string;
  beforeAll(async () => {
    t = await startTestApp();
    const file = await createStoredAudioFile(t, { seconds: 20 });
    const user = await createUser(t);
    await grantFile(t, user.id, file.id);
    session = await signIn(t, user.email);
    const opened = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${file.id}`, undefined, session);
    streamUrl = `${t.url}${opened.body.data.streamUrl}`;
  });
  afterAll(async () => {
    await t?.close();
    await removeTones();
  });

  const headers = () => ({
    authorization: `Bearer ${session.token}`,
    'x-device-id': session.deviceId,
    'accept-encoding': 'gzip, deflate, br',
  });

  it('compresses a GraphQL answer above 1 KiB and leaves a small one alone', async () => {
    const query = '{ __schema { types { name description } } }';
    const big = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(big.headers.get('content-encoding')).toBe('br');
    const body = (await big.json()) as { data: { __schema: { types: unknown[] } } };
    expect(body.data.__schema.types.length).toBeGreaterThan(10);
    const small = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses audio bytes, ranged or whole', async () => {
    for (const range of ['bytes=0-65535', undefined]) {
      const res = await fetch(streamUrl, { headers: { ...headers(), ...(range ? { range } : {}) } });
      expect(res.status).toBe(range ? 206 : 200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
    }
  });
});
