import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterClient, newDeviceId, type Session } from './cluster-client.js';
import { clusterOf, countByReplica, createAccount, signInAdmin, USER_PASSWORD } from './cluster-fixtures.js';

// Each test signs in from an address of its own (ClusterClient), so neither spends the other's
// per-address allowance, nor does the administrator's sign-in.
const cluster = clusterOf();
const { proxy } = cluster;
const clients: ClusterClient[] = [proxy];
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin(proxy);
});
afterAll(() => {
  for (const client of clients) client.close();
});

function newClient(): ClusterClient {
  const client = new ClusterClient(cluster.proxyUrl);
  clients.push(client);
  return client;
}

describe('sign-in limits across replicas', () => {
  it('holds 45 sign-ins a minute from one address, spread over both replicas, to the limit of 30', async () => {
    const account = await createAccount(proxy, admin);
    const client = newClient();
    const deviceId = newDeviceId();
    const answers = [];
    for (let i = 0; i < 45; i++) answers.push(await client.login(account.email, USER_PASSWORD, deviceId, true));

    const limited = answers.filter((a) => a.status === 429);
    const seen = {
      answered: answers.length - limited.length,
      limited: limited.length,
      byReplica: countByReplica(answers),
      limitedByReplica: countByReplica(limited),
    };
    expect(Object.keys(seen.byReplica), JSON.stringify(seen)).toHaveLength(2);
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);
    expect(limited.every((a) => a.body.error?.code === 'RATE_LIMITED')).toBe(true);
    expect(seen.answered, JSON.stringify(seen)).toBeLessThanOrEqual(30);
    expect(seen.limited, JSON.stringify(seen)).toBeGreaterThanOrEqual(15);
  });

  it('counts five wrong passwords sent to alternating replicas in full: a new device is then refused, right password or not', async () => {
    const account = await createAccount(proxy, admin);
    const guesser = newClient();
    const guesserDevice = newDeviceId();
    const guesses = [];
    for (let i = 1; i <= 5; i++) {
      guesses.push(await guesser.login(account.email, `wrong-password-${i}`, guesserDevice, true));
    }
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 401, 401]);
    expect(guesses.map((g) => g.body.error?.code)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    expect(Object.keys(countByReplica(guesses))).toHaveLength(2);

    // The owner, on a new device elsewhere, with the right password: the account's run locked it.
    const owner = await newClient().login(account.email, USER_PASSWORD, newDeviceId(), true);
    expect(owner.status).toBe(429);
    expect(owner.body.error?.code).toBe('RATE_LIMITED');
    expect(owner.body.message).toBe('Too many failed login attempts. Try again in 15 minute(s).');
  });
});
