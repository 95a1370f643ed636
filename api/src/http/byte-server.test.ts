import { mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChapterClient, withSession } from '../test/chapter-client.js';
import { createAdminSession } from '../test/factories.js';
import { expectSecurityHeaders, rawRequest } from '../test/hostile/response-checks.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { StreamClient } from '../test/stream-client.js';
import { createStoredAudioFile, removeTones } from '../test/stream-fixtures.js';
import type { Logger } from '../logger.js';
import { apiRoutes } from '../compose/routes.js';
import { authenticateBeforeRoute } from '../features/auth/authenticate-request.js';
import { byteRequests } from './byte-server.js';

/** The byte routes, answered ahead of Express: as Express answered them, and nothing else taken from it. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

/** A request for exactly this target (fetch would tidy it up), to the app or to `base`. */
const raw = (path: string, headers: Record<string, string> = {}, method = 'GET', base = t.url) =>
  rawRequest(base, { method, path, headers });

describe('a byte URL', () => {
  it('is served in every spelling Express served it, and answers OPTIONS as Express did', async () => {
    const file = await createStoredAudioFile(t, { seconds: 2 });
    const c = new StreamClient(t, file);
    const url = await c.openStream(await c.viewer());
    const { pathname } = new URL(url);
    const token = pathname.split('/').pop() as string;
    const cookie = c.proofFor(url);
    const first = await raw(pathname, { cookie, range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expectSecurityHeaders(first, 'stream range');
    const spellings = [
      `${pathname}/`,
      pathname.replace('/api/v1/drm/stream', '/API/V1/DRM/Stream'),
      pathname.replace(token, `%${token.charCodeAt(0).toString(16)}${token.slice(1)}`),
      `${t.url}${pathname}`,
      `${pathname}?unused=1#fragment`,
    ];
    for (const target of spellings) {
      const again = await raw(target, { cookie, range: 'bytes=0-99' });
      expect([target, again.status, again.text]).toEqual([target, 206, first.text]);
    }
    const options = await raw(pathname, {}, 'OPTIONS');
    expect([options.status, options.headers.allow, options.text]).toEqual([200, 'GET, HEAD', 'GET, HEAD']);
    const undecodable = await raw('/api/v1/drm/stream/%E0%A4%A', { cookie });
    expect([undecodable.status, JSON.parse(undecodable.text).error.code]).toEqual([400, 'BAD_USER_INPUT']);
  });

  it('leaves every other path and method to Express', async () => {
    for (const [target, method] of [
      ['/api/v1/drm/stream/', 'GET'],
      ['/api/v1/drm/stream/a-token-that-is-long-enough/more', 'GET'],
      ['/api/v1//drm/stream/a-token-that-is-long-enough', 'GET'],
      ['/api/v1/drm/stream/a-token-that-is-long-enough', 'POST'],
    ]) {
      const answer = await raw(target, {}, method);
      expect([target, method, answer.status, JSON.parse(answer.text).message]).toEqual([
        target,
        method,
        404,
        'Route not found',
      ]);
      expectSecurityHeaders(answer, target);
    }
  });

  it('answers HEAD for a GET route with its headers and no body, as Express did', async () => {
    const admin = await createAdminSession(t);
    const chapters = new ChapterClient(t, admin);
    const file = await chapters.fileWithChapters([{ label: 'Only', startTime: 0, endTime: 4 }]);
    const chapterId = (await chapters.finalizeAndWait(file.id, 'filesystem'))[0].id;
    const viewer = await chapters.viewerOf(file.id);
    const { pathname, search } = new URL(await chapters.streamUrl(file.id, chapterId, viewer));
    const get = await raw(pathname + search, withSession(viewer));
    const head = await raw(pathname + search, withSession(viewer), 'HEAD');
    expect(get.status).toBe(200);
    expect(get.text).toMatch(/^#EXTM3U/);
    expect([head.status, head.text]).toEqual([200, '']);
    expect(head.headers['content-type']).toBe('application/vnd.apple.mpegurl; charset=utf-8');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers['cache-control']).toBe('no-store');
  });
});

describe('an unexpected failure of a byte route', () => {
  const logged: Record<string, unknown>[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (msg, fields) => logged.push({ msg, ...fields }),
  };
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const bytes = byteRequests(t.app.orm, t.app.deps, logger, apiRoutes, authenticateBeforeRoute);
    server = createServer((req, res) => bytes(req, res) || res.writeHead(500).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is a 500 naming the request, logged under the route pattern and never with the token in the path', async () => {
    const file = await createStoredAudioFile(t, { seconds: 2 });
    const c = new StreamClient(t, file);
    const url = await c.openStream(await c.viewer());
    // A disk fault: the file's place now holds a directory, which opens but does not read.
    const stored = path.join(t.config.dataDir, file.storagePath);
    await rm(stored);
    await mkdir(stored);
    const { pathname } = new URL(url);
    const answer = await raw(pathname, { cookie: c.proofFor(url), range: 'bytes=0-99' }, 'GET', base);
    const requestId = answer.headers['x-request-id'];
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text).message).toBe(`Internal server error (reference ${requestId})`);
    expect(logged).toEqual([
      expect.objectContaining({ msg: 'http.unhandled', requestId, method: 'GET', path: '/api/v1/drm/stream/:token' }),
    ]);
    expect(JSON.stringify(logged)).not.toContain(pathname.split('/').pop());
  });
});
