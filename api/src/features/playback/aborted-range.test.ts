import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createSizedAudioFile, openStream, readBody } from '../../test/rip-fixtures.js';
import { createStoredAudioFile, removeTones } from '../../test/stream-fixtures.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

async function rangeOf(url: string, cookie: string, range: string) {
  const res = await fetch(url, { headers: { cookie, range } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe('a stored file kept open between ranges', () => {
  it('stays readable, and stays itself, after a client hangs up on a long response', async () => {
    // createSizedAudioFile fills the file with 0x5a; the tone below is a real MP3.
    const long = await createSizedAudioFile(t, 20_000_000, 600);
    const stream = await openStream(t, long.id, admin);
    const cut = await readBody(stream.url, { cookie: stream.cookie }, { upTo: 1_000_000, timeoutMs: 3000 });
    expect(cut.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    // Another file opened now may get the descriptor number the first one had.
    const tone = await createStoredAudioFile(t, { seconds: 2 });
    const other = await openStream(t, tone.id, admin);
    expect((await rangeOf(other.url, other.cookie, 'bytes=0-99')).status).toBe(206);

    for (const range of ['bytes=0-999', 'bytes=5000000-5299999']) {
      const again = await rangeOf(stream.url, stream.cookie, range);
      expect(again.status).toBe(206);
      expect(again.body.length).toBeGreaterThan(0);
      expect(again.body.every((b) => b === 0x5a)).toBe(true);
    }
  });
});
