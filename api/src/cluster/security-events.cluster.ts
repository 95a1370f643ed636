import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterClient, type Session } from './cluster-client.js';
import { clusterOf, createAccount, signInAdmin, USER_PASSWORD } from './cluster-fixtures.js';

const cluster = clusterOf();
const { proxy } = cluster;
const [replicaA, replicaB] = cluster.replicaUrls.map((url) => new ClusterClient(url));
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin(proxy);
});
afterAll(() => {
  for (const client of [proxy, replicaA, replicaB]) client.close();
});

/** A new user signed in through nginx. */
async function signedInUser(): Promise<{ id: string; session: Session }> {
  const account = await createAccount(proxy, admin);
  return { id: account.id, session: await proxy.signIn(account.email, USER_PASSWORD) };
}

describe('security events across replicas', () => {
  it('reaches a socket held on replica A within a second when an administrator ends the session on replica B', async () => {
    const user = await signedInUser();
    const socket = await replicaA.subscribeSecurityEvents(user.session);
    try {
      const issued = performance.now();
      const res = await replicaB.rest(
        'DELETE',
        `/admin/users/${user.id}/sessions/${user.session.sessionId}`,
        undefined,
        admin,
      );
      expect(res.status).toBe(200);
      const event = await socket.next(5000);
      expect(event.type).toBe('SESSION_TERMINATED');
      expect(event.at - issued, 'ms from the action to the event').toBeLessThan(1000);
      expect((await proxy.rest('GET', '/auth/me', undefined, user.session)).status).toBe(401);
    } finally {
      await socket.close();
    }
  });

  it('signs out a socket held through nginx within a second when an administrator locks the account through nginx', async () => {
    const user = await signedInUser();
    const socket = await proxy.subscribeSecurityEvents(user.session);
    try {
      const issued = performance.now();
      const res = await proxy.rest('PUT', `/admin/users/${user.id}`, { isLocked: true }, admin);
      expect(res.status).toBe(200);
      // Round-robin gave the action the replica the socket is not on.
      expect(socket.upstream).not.toBeNull();
      expect(res.upstream).not.toBe(socket.upstream);
      const event = await socket.next(5000);
      expect(event.type).toBe('FORCED_LOGOUT');
      expect(event.at - issued, 'ms from the action to the event').toBeLessThan(1000);
      expect((await proxy.rest('GET', '/auth/me', undefined, user.session)).status).toBe(401);
    } finally {
      await socket.close();
    }
  });
});
