import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
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
