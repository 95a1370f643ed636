import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Coverage } from './coverage.js';
import { RipMeter, type Listener, type Offence } from './rip-meter.js';
import { ripDetectionEnv, ripSettings, type RipSettings } from './rip-settings.js';

const MiB = 1024 * 1024;
const CHUNK = 128 * 1024;
/** A one-hour MP3 at 128 kbit/s, the kind of file the benchmark and the issue talk about. */
const HOUR = { id: 'file-1', size: 57_600_000, duration: 3600 };

function meterWith(env: Record<string, string> = {}) {
  const settings: RipSettings = ripSettings(z.object(ripDetectionEnv).parse(env));
  let now = 1_000_000;
  const meter = new RipMeter(settings, () => now);
  const offences: Offence[] = [];
  const listener = (over: Partial<Listener> = {}): Listener => ({
    credential: { kind: 'session', id: 'session-1', start: 1 },
    userId: 'user-1',
    exempt: false,
    address: '10.0.0.1',
    report: (o) => offences.push(o),
    ...over,
  });
  /** Reads `bytes` of a response from `from` at the current time; resolves to the longest hold. */
  const read = (l: Listener, from: number, bytes: number, file = HOUR) => {
    const tap = meter.fileResponse(l, file, from);
    let held = 0;
    for (let done = 0; done < bytes; done += CHUNK) held = Math.max(held, tap.written(Math.min(CHUNK, bytes - done)));
    return held;
  };
  return { meter, settings, offences, listener, read, tick: (ms: number) => (now += ms) };
}

describe('rip meter', () => {
  it('flags and throttles a ripper reading a one-hour file in one go, once per throttle period', () => {
    const { offences, listener, read } = meterWith();
    const held = read(listener(), 0, HOUR.size);
    expect(offences).toHaveLength(1);
    expect(offences[0]).toMatchObject({ rule: 'rate', fileId: HOUR.id, windowSeconds: 60, addresses: ['10.0.0.1'] });
    expect(offences[0].speed).toBeGreaterThan(4);
    // Throttled: each further chunk (8 s of audio) waits for its turn at 1.5x real time.
    expect(held).toBeGreaterThan(60_000);
    expect(read(listener(), 0, CHUNK)).toBeGreaterThan(0);
  });

  it('never flags a listener who plays, seeks ten times and skips chapters, even with full socket buffers', () => {
    const { offences, listener, read, tick } = meterWith();
    // Chromium reads about 3 MB ahead of each seek, and on loopback the kernel takes another 6-9 MB
    // before the server's writes block (measured: 9-12 MiB written per aborted seek).
    read(listener(), 0, 11.5 * MiB);
    for (let second = 0; second < 20; second++) {
      tick(1000);
      read(listener(), 11.5 * MiB + second * 16_000, 16_000);
    }
    const targets = [0.05, 0.3, 0.55, 0.8, 0.95, 0.1, 0.4, 0.6, 0.7, 0.2];
    for (const share of targets) {
      tick(3000);
      read(listener(), Math.floor(share * HOUR.size), Math.min(11 * MiB, HOUR.size - Math.floor(share * HOUR.size)));
    }
    // Chapter skips in the main player are seeks to each chapter's start: six more, ten minutes apart.
    for (let chapter = 1; chapter <= 6; chapter++) {
      tick(2000);
      read(listener(), chapter * 9_600_000, 10 * MiB);
    }
    // And playing on for two minutes at 1x.
    for (let second = 0; second < 120; second++) {
      tick(1000);
      read(listener(), 60 * MiB + second * 16_000, 16_000, { ...HOUR, size: 200 * MiB });
    }
    expect(offences).toEqual([]);
  });

  it('does not count bytes served before again', () => {
    const { offences, listener, read, tick } = meterWith({ RIP_READ_AHEAD_MB: '1', RIP_SEEKS_PER_WINDOW: '100' });
    // 3 MB is 187 s of audio: under the 240 s a window allows, however often it is read again.
    for (let round = 0; round < 20; round++) {
      tick(500);
      read(listener(), 0, 3_000_000);
    }
    expect(offences).toEqual([]);
    read(listener(), 3_000_000, 2_000_000);
    expect(offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('counts read-ahead beyond the window allowance in full', () => {
    const { offences, listener, read } = meterWith({ RIP_SEEKS_PER_WINDOW: '3', RIP_READ_AHEAD_MB: '2' });
    // Each jump reads a whole read-ahead, 2 MiB (131 s of audio) at a new place: three are free.
    const jump = (n: number) => read(listener(), n * 5_000_000, 2 * MiB);
    for (let n = 0; n < 3; n++) jump(n);
    jump(3);
    expect(offences).toEqual([]);
    jump(4);
    expect(offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('spends the allowance by new audio, not by seeks into audio served before', () => {
    const { offences, listener, read } = meterWith({ RIP_SEEKS_PER_WINDOW: '3', RIP_READ_AHEAD_MB: '2' });
    // A read-ahead and 1.5 MiB (98 s) past it; then twenty seeks, each reading 2 MiB of which only
    // the last 50 kB are new (1 MB in all, half a read-ahead); then two jumps to new places.
    read(listener(), 0, 3.5 * MiB);
    for (let n = 1; n <= 20; n++) read(listener(), 1.5 * MiB + n * 50_000, 2 * MiB);
    read(listener(), 20_000_000, 2 * MiB);
    read(listener(), 30_000_000, 2 * MiB);
    // 98 s past the first read-ahead, and the half read-ahead the window could not pay for (62 s).
    expect(offences).toEqual([]);
    read(listener(), 40_000_000, 2 * MiB);
    expect(offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('gives the read-ahead back a window later', () => {
    const { offences, listener, read, tick } = meterWith({ RIP_SEEKS_PER_WINDOW: '3', RIP_READ_AHEAD_MB: '2' });
    for (let round = 0; round < 5; round++) {
      for (let jump = 0; jump < 3; jump++) read(listener(), (round * 3 + jump) * 3_000_000, 1_500_000);
      tick(61_000);
    }
    expect(offences).toEqual([]);
  });

  it('carries a run on across responses that continue where the last stopped (ranges in order)', () => {
    const { offences, listener, read } = meterWith();
    for (let at = 0; at < 30 * MiB; at += 64 * 1024) read(listener(), at, 64 * 1024);
    expect(offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('flags most of a long file taken sooner than it plays at the allowed speed', () => {
    const { offences, listener, read, tick } = meterWith({ RIP_SEEKS_PER_WINDOW: '2', RIP_READ_AHEAD_MB: '1' });
    const book = { id: 'book', size: 10_000_000, duration: 36_000 };
    // A client imitating a player that seeks: a read-ahead's worth at a new place every 30 s (each
    // a free read-ahead, none carrying on from another), from the end backwards: 90% in 4.5 minutes.
    for (let piece = 9; piece >= 2; piece--) {
      read(listener(), piece * 1_000_000, 1_000_000, book);
      tick(30_000);
    }
    expect(offences).toEqual([]);
    read(listener(), 1_000_000, 1_000_000, book);
    expect(offences.map((o) => o.rule)).toEqual(['whole_file']);
    expect(offences[0].coverage).toBeGreaterThanOrEqual(0.9);
  });

  it('flags a session used from two addresses at once, not one that moved', () => {
    const { offences, listener, read, tick } = meterWith();
    read(listener({ address: '10.0.0.1' }), 0, 1000);
    tick(5000);
    read(listener({ address: '10.0.0.2' }), 0, 1000);
    tick(120_000);
    read(listener({ address: '10.0.0.2' }), 0, 1000);
    expect(offences).toEqual([]);
    tick(5000);
    read(listener({ address: '10.0.0.3' }), 0, 1000);
    tick(5000);
    read(listener({ address: '10.0.0.2' }), 0, 1000);
    expect(offences).toHaveLength(1);
    expect(offences[0]).toMatchObject({ rule: 'two_addresses', addresses: ['10.0.0.3', '10.0.0.2'] });
  });

  it('meters an API key on its own, by rate but not by the addresses it is used from', () => {
    const { offences, listener, read, tick } = meterWith();
    const key = (address: string) => listener({ credential: { kind: 'apiKey', id: 'session-1' }, address });
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.1', '10.0.0.2']) {
      read(key(address), 0, 1000);
      tick(1000);
    }
    expect(offences).toEqual([]);
    read(key('10.0.0.1'), 0, HOUR.size);
    expect(offences).toHaveLength(1);
    expect(offences[0]).toMatchObject({ rule: 'rate', credential: { kind: 'apiKey', id: 'session-1' } });
    // The device session with the same id is another meter: not throttled by the key's offence.
    expect(read(listener(), 0, CHUNK)).toBe(0);
  });

  it('flags too many chapter keys, and gives a throttled session one new key a window', () => {
    const { meter, offences, listener, tick } = meterWith({ RIP_KEYS_PER_WINDOW: '5' });
    for (let k = 0; k < 5; k++) expect(meter.key(listener(), `chapter-${k}`)).toBeNull();
    expect(offences).toEqual([]);
    expect(meter.key(listener(), 'chapter-5')).toBeNull();
    expect(offences.map((o) => o.rule)).toEqual(['keys']);
    expect(meter.key(listener(), 'chapter-5')).toBeNull();
    expect(meter.key(listener(), 'chapter-6')).toBeGreaterThan(0);
    tick(61_000);
    expect(meter.key(listener(), 'chapter-6')).toBeNull();
    expect(meter.key(listener(), 'chapter-7')).toBeGreaterThan(0);
  });

  it('counts segments past a chapter load read-ahead, and not a few segments per chapter skip', () => {
    const { meter, offences, listener } = meterWith();
    for (let chapter = 0; chapter < 12; chapter++) {
      for (let index = 0; index < 3; index++) meter.segment(listener(), `chapter-${chapter}`, index, 6);
    }
    expect(offences).toEqual([]);
    for (let index = 0; index < 60; index++) meter.segment(listener(), 'chapter-x', index, 6);
    expect(offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('attributes segments to the session that fetched the chapter from the same address', () => {
    const { meter, listener } = meterWith();
    meter.attribute(listener(), 'chapter-1');
    expect(meter.segmentListener('10.0.0.1', 'chapter-1', () => {})).toMatchObject({
      credential: { kind: 'session', id: 'session-1' },
    });
    expect(meter.segmentListener('10.0.0.9', 'chapter-1', () => {})).toBeNull();
    expect(meter.segmentListener('10.0.0.1', 'chapter-2', () => {})).toBeNull();
  });

  it('meters administrators but never flags or throttles them', () => {
    const { offences, listener, read } = meterWith();
    expect(read(listener({ exempt: true }), 0, HOUR.size)).toBe(0);
    expect(offences).toEqual([]);
  });

  it('keeps a bounded number of sessions, the idle ones going first', () => {
    const { meter, listener, read } = meterWith();
    for (let s = 0; s < 10_500; s++)
      read(listener({ credential: { kind: 'session', id: `s-${s}`, start: 1 } }), 0, 1000);
    expect(meter.size).toBeLessThanOrEqual(10_000);
    meter.forgetUser('user-1');
    expect(meter.size).toBe(0);
  });
});

describe('coverage', () => {
  it('merges what was served and tells what is new', () => {
    const c = new Coverage(3);
    c.add(0, 10);
    c.add(20, 30);
    expect(c.fresh(5, 25)).toBe(10);
    c.add(10, 20);
    expect(c.total).toBe(30);
    expect(c.fresh(0, 30)).toBe(0);
    c.add(40, 41);
    c.add(50, 51);
    c.add(60, 61);
    // Four parts are one too many: the closest two (40 and 50) merge, their gap counting as served.
    expect(c.fresh(40, 51)).toBe(0);
    expect(c.total).toBe(30 + 11 + 1);
  });
});
