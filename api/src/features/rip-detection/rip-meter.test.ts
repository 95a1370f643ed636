import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Coverage } from './coverage.js';
import { MemoryLedgerStore } from './ledger-store.js';
import { RipMeter, type ByteTap, type Listener, type MeteredCredential, type Offence } from './rip-meter.js';
import { ripDetectionEnv, ripSettings, type RipSettings } from './rip-settings.js';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** A one-hour MP3 at 128 kbit/s (16,000 bytes a second), the kind of file the issue talks about. */
const HOUR = { id: 'file-1', size: 57_600_000, duration: 3600 };
const BYTES_PER_SECOND = HOUR.size / HOUR.duration;
/** What a browser takes after a seek before it stops reading: its buffer plus both sockets' (measured on loopback). */
const PLAYER_BUFFER = 12 * MiB;

/**
 * A meter on a clock of the test's own. A reader takes each chunk when the meter lets it go and
 * no sooner than the link allows (a fast one: 1 GB/s), so a test can run an hour of listening or
 * ripping in milliseconds.
 */
function meterWith(env: Record<string, string> = {}) {
  const settings: RipSettings = ripSettings(z.object(ripDetectionEnv).parse(env));
  let now = 1_000_000;
  const meter = new RipMeter(settings, new MemoryLedgerStore(settings), () => now);
  const offences: Offence[] = [];
  const session = (id = 'session-1', start = 1): MeteredCredential => ({ kind: 'session', id, start });
  const listener = (over: Partial<Listener> = {}): Listener => ({
    credential: session(),
    userId: 'user-1',
    exempt: false,
    address: '10.0.0.1',
    report: (o) => offences.push(o),
    ...over,
  });
  const send = (tap: ByteTap, bytes: number) => {
    const wait = tap.written(bytes);
    now += Math.max(wait, bytes / 1e6);
  };
  /** Reads `bytes` from `from` as fast as it is let; resolves to the seconds it took. */
  const pull = (l: Listener, from: number, bytes: number, file = HOUR) => {
    const started = now;
    const tap = meter.fileResponse(l, file, from);
    for (let done = 0; done < bytes; done += CHUNK) send(tap, Math.min(CHUNK, bytes - done));
    return (now - started) / 1000;
  };
  /**
   * A player: reads from `from` until its buffer is full, plays `seconds` at `rate`, reading as it
   * plays, then hangs up (a seek, a skip or a pause).
   */
  const play = (l: Listener, from: number, seconds: number, rate = 1) => {
    const tap = meter.fileResponse(l, HOUR, from);
    const started = now;
    let sent = 0;
    while (now - started < seconds * 1000 && from + sent < HOUR.size) {
      const played = ((now - started) / 1000) * rate * BYTES_PER_SECOND;
      if (sent - played < PLAYER_BUFFER) {
        send(tap, CHUNK);
        sent += CHUNK;
      } else {
        now += 100;
      }
    }
  };
  return { meter, settings, offences, listener, session, pull, play, tick: (ms: number) => (now += ms) };
}

/** Seconds of an hour-long file's audio in `bytes`. */
const audioIn = (bytes: number) => bytes / BYTES_PER_SECOND;

/**
 * The most audio an account can have had after `seconds` (defaults): every free read-ahead of the
 * pool and those it got back, the lead, and the allowed speed.
 */
const mostAudio = (seconds: number) => 10 * 60 + seconds + 240 + 4 * seconds;

describe('rip meter: however a file is sliced, the account gets no more than the allowed speed and its allowances', () => {
  it('one GET of a whole hour: a minute at full speed, then paced to the allowed speed', () => {
    const { offences, listener, pull } = meterWith();
    const seconds = pull(listener(), 0, HOUR.size);
    // Unpaced, 57.6 MB takes 0.06 s here; paced, the hour takes most of a quarter of an hour.
    expect(seconds).toBeGreaterThan((HOUR.duration - 60) / 4 - 1);
    // At the allowed speed, one response is no offence.
    expect(offences).toEqual([]);
  });

  it('descending 16 MiB ranges: one after another they are paced, all at once they are flagged', () => {
    const one = meterWith();
    let elapsed = 0;
    for (let piece = 3; piece >= 0; piece--) elapsed += one.pull(one.listener(), piece * 16 * MiB, 16 * MiB);
    expect(audioIn(64 * MiB)).toBeLessThanOrEqual(4 * (60 + audioIn(CHUNK)) + 4 * elapsed);

    const parallel = meterWith();
    const taps = [3, 2, 1, 0].map((piece) => parallel.meter.fileResponse(parallel.listener(), HOUR, piece * 16 * MiB));
    for (let k = 0; k < 400 && parallel.offences.length === 0; k++) {
      for (const tap of taps) parallel.tick(tap.written(CHUNK));
    }
    expect(parallel.offences.map((o) => o.rule)).toEqual(['rate']);
  });

  it('a file of ten minutes in one GET is paced; the same file by many ranges at once is flagged', () => {
    const small = { id: 'small', size: 9_600_000, duration: 600 };
    const one = meterWith();
    expect(one.pull(one.listener(), 0, small.size, small)).toBeGreaterThan((600 - 60) / 4 - 1);

    const many = meterWith();
    const taps = Array.from({ length: 10 }, (_, k) => many.meter.fileResponse(many.listener(), small, k * 960_000));
    for (let k = 0; k < 15; k++) for (const tap of taps) many.tick(tap.written(CHUNK));
    expect(many.offences.map((o) => o.rule)).toEqual(['whole_file']);
  });

  it('small ranges that follow each other, with or without a new sign-in between pieces', () => {
    for (const resign of [false, true]) {
      const { offences, listener, session, pull } = meterWith();
      let elapsed = 0;
      for (let k = 0, from = 0; from < HOUR.size; k++, from += 256 * 1024) {
        const credential = resign ? session(`session-${Math.floor(k / 60)}`, k) : session();
        elapsed += pull(listener({ credential }), from, Math.min(256 * 1024, HOUR.size - from));
      }
      // However the pieces are cut or whoever signs in for them, one read-ahead and the allowed speed.
      expect(audioIn(HOUR.size)).toBeLessThanOrEqual(60 + audioIn(CHUNK) + 4 * elapsed);
      expect(offences).toEqual([]);
    }
  });

  it('jumps that each take less than a read-ahead, in any order, spread over the file', () => {
    for (const gap of [0, 1]) {
      const { offences, listener, pull } = meterWith();
      const piece = 50 * BYTES_PER_SECOND;
      const order = Array.from({ length: 60 }, (_, k) => (k * 29) % 60);
      let got = 0;
      let elapsed = 0;
      for (const k of order) {
        if (offences.length > 0) break;
        // gap 1: a second left out between pieces, so no piece carries on from another.
        elapsed += pull(listener(), k * (piece + gap * BYTES_PER_SECOND), piece);
        got += 50;
      }
      expect(got).toBeLessThanOrEqual(mostAudio(elapsed));
      expect(offences.length, `gap ${gap}`).toBe(1);
    }
  });

  it("an API key, a second session and the account's segments all draw on one ledger", () => {
    const { offences, listener, pull, meter } = meterWith();
    const key = listener({ credential: { kind: 'apiKey', id: 'key-1' }, address: '192.0.2.1' });
    const phone = listener({ credential: { kind: 'session', id: 'session-2', start: 5 }, address: null });
    // Each alone stays under the lead; together they pass it.
    for (let k = 0; k < 6; k++) pull(key, k * 20 * MiB, 50 * BYTES_PER_SECOND);
    for (let index = 0; index < 40; index++) meter.segment(phone, 'chapter-1', index * 20, 6);
    expect(offences).toHaveLength(0);
    for (let k = 0; k < 10 && offences.length === 0; k++) pull(listener(), (k * 5 + 2) * MiB, 50 * BYTES_PER_SECOND);
    expect(offences).toHaveLength(1);
    expect(offences[0].rule).toBe('rate');
  });

  it('throttles the whole account once flagged, and reports once per throttle period', () => {
    const { offences, listener, pull, meter } = meterWith();
    for (let k = 0; k < 20; k++) pull(listener(), k * 2 * MiB, 60 * BYTES_PER_SECOND);
    expect(offences).toHaveLength(1);
    // Throttled: a minute of audio now takes 40 s (1.5x), on any credential and in any chapter.
    const key = listener({ credential: { kind: 'apiKey', id: 'key-1' } });
    expect(pull(key, 50 * MiB, 60 * BYTES_PER_SECOND)).toBeGreaterThan(35);
    const held = [0, 1, 2].map((index) => meter.segment(listener(), 'chapter-9', index, 6));
    expect(held[2]).toBeGreaterThan(0);
    expect(offences).toHaveLength(1);
  });

  it('flags too many chapter keys, and gives a throttled account one new key a window', () => {
    const { meter, offences, listener } = meterWith({ RIP_KEYS_PER_WINDOW: '3' });
    for (let k = 1; k <= 3; k++) expect(meter.key(listener(), `chapter-${k}`)).toBeNull();
    expect(offences).toHaveLength(0);
    expect(meter.key(listener(), 'chapter-4')).toBeNull();
    expect(offences.map((o) => o.rule)).toEqual(['keys']);
    expect(meter.key(listener(), 'chapter-5')).toBeGreaterThan(0);
    expect(meter.key(listener(), 'chapter-2')).toBeNull();
  });

  it('flags one device session used from two addresses in turns, not one that moved, nor a key', () => {
    const { offences, listener, pull, tick } = meterWith();
    pull(listener({ address: '10.0.0.1' }), 0, CHUNK);
    tick(120_000);
    pull(listener({ address: '10.0.0.2' }), CHUNK, CHUNK);
    expect(offences).toHaveLength(0);
    const key = { credential: { kind: 'apiKey', id: 'k' } as const };
    for (const address of ['1.1.1.1', '2.2.2.2', '1.1.1.1']) pull(listener({ ...key, address }), 0, CHUNK);
    expect(offences).toHaveLength(0);
    pull(listener({ address: '10.0.0.1' }), 2 * CHUNK, CHUNK);
    expect(offences.map((o) => o.rule)).toEqual(['two_addresses']);
  });

  it('meters administrators but never paces, throttles or flags them', () => {
    const { offences, listener, pull } = meterWith();
    expect(pull(listener({ exempt: true }), 0, HOUR.size)).toBeLessThan(1);
    expect(offences).toHaveLength(0);
  });
});

describe('rip meter: listeners are never flagged', () => {
  it('plays an hour at 1x, and at 3x, with the buffers a browser and its sockets hold', () => {
    for (const rate of [1, 3]) {
      const { offences, listener, play } = meterWith();
      play(listener(), 0, 3600 / rate, rate);
      expect(offences, JSON.stringify(offences)).toEqual([]);
    }
  });

  it('seeks ten times and skips six chapters, ten seconds apart, then plays on at 3x', () => {
    const { offences, listener, play, meter } = meterWith();
    play(listener(), 0, 30);
    for (const share of [0.05, 0.3, 0.55, 0.8, 0.95, 0.1, 0.4, 0.6, 0.7, 0.2]) {
      play(listener(), Math.floor(share * HOUR.size), 10);
    }
    for (const start of [0, 600, 1200, 1800, 2400, 3000]) play(listener(), start * BYTES_PER_SECOND, 10);
    expect(offences, JSON.stringify(offences)).toEqual([]);
    play(listener(), 3000 * BYTES_PER_SECOND + 5 * MiB, 180, 3);
    expect(offences, JSON.stringify(offences)).toEqual([]);
    expect(meter.leadOf('user-1')).toBeLessThan(180);
  });

  it('pauses for ten minutes and resumes, on another device of the account', () => {
    const { offences, listener, play, tick, session } = meterWith();
    play(listener(), 0, 300, 2);
    tick(600_000);
    play(listener({ credential: session('tablet', 9), address: '10.0.0.7' }), 600 * BYTES_PER_SECOND, 600, 1);
    expect(offences).toEqual([]);
  });

  it('skips through chapters of encrypted segments, reading ten seconds ahead at 3x', () => {
    const { meter, offences, listener, tick } = meterWith();
    for (let chapter = 0; chapter < 10; chapter++) {
      for (let index = 0; index < 4; index++) tick(meter.segment(listener(), `chapter-${chapter}`, index, 6) + 50);
      tick(5000);
    }
    for (let index = 0; index < 200; index++) tick(Math.max(meter.segment(listener(), 'chapter-long', index, 6), 2000));
    expect(offences).toEqual([]);
  });
});

describe('coverage', () => {
  it('merges what was served and tells what is new', () => {
    const c = new Coverage(3);
    c.add(0, 10);
    c.add(20, 30);
    expect(c.fresh(5, 25)).toBe(10);
    c.add(5, 25);
    expect(c.total).toBe(30);
    c.add(40, 50);
    c.add(60, 70);
    c.add(80, 90);
    // Past three parts the two closest merge, counting their gap as served.
    expect(c.total).toBeGreaterThanOrEqual(60);
  });
});
