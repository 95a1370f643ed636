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
