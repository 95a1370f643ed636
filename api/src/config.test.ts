import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: tmpdir(), SECRET: 'test-secret-test-secret-test-secret-0123456789', ...env });

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset', () => {
    const { trustProxy } = load({});
    expect(['127.0.0.1', '::1', '10.1.2.3'].some((address) => trustProxy(address, 0))).toBe(false);
  });

  it('takes named ranges, addresses and CIDR ranges, comma-separated', () => {
    const { trustProxy } = load({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' });
    expect(['127.0.0.1', '::1', '10.1.2.3', '2001:db8::1'].every((address) => trustProxy(address, 0))).toBe(true);
    expect(trustProxy('192.0.2.1', 0)).toBe(false);
  });

  it.each(['1', 'true', '*', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/8', 'loopback,'])(
    'refuses %j with one line naming it',
    (value) => {
      expect(() => load({ TRUST_PROXY: value })).toThrow(
        'Invalid TRUST_PROXY: TRUST_PROXY must be loopback, linklocal, uniquelocal or IP addresses and CIDR ranges, comma-separated',
      );
    },
  );
});

describe('KEEP_ALIVE_TIMEOUT_SECONDS', () => {
  it('keeps idle connections longer than a balancer does (60 s) by default', () => {
    expect(load({}).keepAliveTimeoutSeconds).toBe(65);
    expect(load({ KEEP_ALIVE_TIMEOUT_SECONDS: '620' }).keepAliveTimeoutSeconds).toBe(620);
  });

  it.each(['0', '-5', 'soon', '86401'])('refuses %j with one line naming it', (value) => {
    expect(() => load({ KEEP_ALIVE_TIMEOUT_SECONDS: value })).toThrow(
      'Invalid KEEP_ALIVE_TIMEOUT_SECONDS: KEEP_ALIVE_TIMEOUT_SECONDS must be a number of seconds from 1 to 86400',
    );
  });
});

describe('SECRET unset', () => {
  const dataDirs: string[] = [];
  const newDataDir = () => {
    dataDirs.push(mkdtempSync(path.join(tmpdir(), 'pal-secret-')));
    return dataDirs[dataDirs.length - 1];
  };
  afterEach(() => {
    for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is generated into DATA_DIR/secret.key, owner-only, and read back on the next start', () => {
    const dataDir = newDataDir();
    const { secret } = loadConfig({ DATA_DIR: dataDir });
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).secret).toBe(secret);
    expect(readdirSync(dataDir)).toEqual(['secret.key']);
    expect(statSync(path.join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  /** Loads the configuration in `count` threads released at the same instant; their secrets. */
  async function startAtOnce(dataDir: string, count: number): Promise<string[]> {
    const gate = new Int32Array(new SharedArrayBuffer(8)); // [0] go, [1] threads ready
    const program = `
      import { parentPort, workerData } from 'node:worker_threads';
      const { loadConfig } = await import(workerData.config);
      const gate = new Int32Array(workerData.gate);
      Atomics.add(gate, 1, 1);
      Atomics.wait(gate, 0, 0);
      parentPort.postMessage(loadConfig({ DATA_DIR: workerData.dataDir }).secret);`;
    const workerData = { config: new URL('./config.ts', import.meta.url).href, gate: gate.buffer, dataDir };
    // A module (not `eval`) so that it loads the TypeScript sources as the test run's threads do.
    const url = new URL(`data:text/javascript,${encodeURIComponent(program)}`);
    const workers = Array.from({ length: count }, () => new Worker(url, { workerData }));
    try {
      const secrets = workers.map(
        (worker) =>
          new Promise<string>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      );
      while (Atomics.load(gate, 1) < count) await sleep(10);
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      return await Promise.all(secrets);
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  }

  it('is one secret for replicas starting at once on a shared DATA_DIR', async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = newDataDir();
      const secrets = await startAtOnce(dataDir, 6);
      expect(new Set(secrets)).toEqual(new Set([readFileSync(path.join(dataDir, 'secret.key'), 'utf8')]));
      expect(readdirSync(dataDir)).toEqual(['secret.key']);
    }
  }, 60_000);
});
