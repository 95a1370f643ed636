import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTestAudio } from '../test/audio-fixtures.js';
import { createAdminSession, type Session } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { outcome, PARTIAL_TAIL, startPartialPart, trickle, type PartialPart } from '../test/upload-client.js';
import { AudioFile } from '../features/files/audio-file.entity.js';

/**
 * An administrator's upload may take as long as it needs while it keeps coming; any body is cut
 * once it stalls (here after 1 s; 60 s by default), and any other body once it has taken five
 * times that, leaving nothing behind.
 */

let t: TestApp;
let admin: Session;
let wav: Buffer;
beforeAll(async () => {
  t = await startTestApp({ env: { BODY_IDLE_TIMEOUT_SECONDS: '1' } });
  admin = await createAdminSession(t);
  wav = readFileSync(await generateTestAudio('wav', 2, 'Slow.wav'));
});
afterAll(async () => {
  await t?.close();
});

const filesIn = (dir: string) =>
  existsSync(path.join(t.config.dataDir, dir)) ? readdirSync(path.join(t.config.dataDir, dir)) : [];
const part = (sent: number): PartialPart => ({
  route: '/files',
  session: admin,
  field: 'audio',
  fileName: 'Slow.wav',
  bytes: wav,
  sent,
});

describe('request bodies over time', () => {
  it('has no limit on a whole request: Node would cut any request after 5 minutes', () => {
    expect(t.app.server.requestTimeout).toBe(0);
  });

  it("takes an administrator's upload that keeps coming for longer than any deadline", async () => {
    const req = startPartialPart(t.url, part(0));
    const answered = outcome(req);
    const started = Date.now();
    await trickle(req, wav, 10, PARTIAL_TAIL);
    expect(Date.now() - started).toBeGreaterThan(5_000);
    expect(await answered).toBe(201);
  });

  it('cuts any other body that trickles on past five times the idle limit', async () => {
    const login = JSON.stringify({
      email: 'slow@example.com',
      password: 'whatever-123',
      deviceData: { deviceId: 'x' },
    });
    const req = request(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(login.length + 100) },
    });
    const answered = outcome(req);
    const started = Date.now();
    await trickle(req, Buffer.from(login.padEnd(login.length + 100)), 20);
    expect(await answered).toBe('cut');
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('cuts a body that stalls, and registers and keeps nothing of it', async () => {
    const before = await t.app.orm.em.fork().count(AudioFile, {});
    const audioBefore = filesIn('audio');
    const started = Date.now();
    const req = startPartialPart(t.url, part(Math.floor(wav.length / 2)));
    expect(await outcome(req)).toBe('cut');
    expect(Date.now() - started).toBeLessThan(10_000);
    await vi.waitFor(() => expect(filesIn('tmp')).toEqual([]), { timeout: 10_000, interval: 20 });
    expect(await t.app.orm.em.fork().count(AudioFile, {})).toBe(before);
    expect(filesIn('audio')).toEqual(audioBefore);
  });
});
