import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ClusterClient, type Session } from './cluster-client.js';

export const USER_PASSWORD = 'cluster-user-password';

/** The cluster the global setup started, and a client of nginx from an address of its own. */
export function clusterOf() {
  const cluster = inject('cluster');
  return { ...cluster, proxy: new ClusterClient(cluster.proxyUrl) };
}

/** The administrator the first replica created (ADMIN_EMAIL), signed in through `client`. */
export function signInAdmin(client: ClusterClient): Promise<Session> {
  const { adminEmail, adminPassword } = inject('cluster');
  return client.signIn(adminEmail, adminPassword);
}

/** A new account, made by the administrator through the API; its password is USER_PASSWORD. */
export async function createAccount(client: ClusterClient, admin: Session): Promise<{ id: string; email: string }> {
  const email = `cluster-${randomUUID()}@example.com`;
  const res = await client.rest<{ data: { id: string } }>(
    'POST',
    '/admin/users',
    { name: 'Cluster User', email, password: USER_PASSWORD, role: 'user' },
    admin,
  );
  if (res.status !== 201) throw new Error(`creating ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, email };
}

export interface AuditItem {
  action: string;
  userId: string | null;
  details: Record<string, unknown> | null;
}

/** The newest audit entries of one action about one user (admin query auditLog). */
export async function auditEntries(
  client: ClusterClient,
  admin: Session,
  action: string,
  userId: string,
): Promise<AuditItem[]> {
  const res = await client.gql<{ auditLog: { items: AuditItem[] } }>(
    '{ auditLog(offset: 0, limit: 100) { items { action userId details } } }',
    {},
    admin,
  );
  if (!res.body.data) throw new Error(`auditLog: ${JSON.stringify(res.body.errors)}`);
  return res.body.data.auditLog.items.filter((e) => e.action === action && e.userId === userId);
}

/** How many answers each replica gave ("replica a", "replica b"), by nginx's upstream header. */
export function countByReplica(answers: { upstream: string | null }[]): Record<string, number> {
  const { replicaUrls } = inject('cluster');
  const names = new Map(replicaUrls.map((url, i) => [new URL(url).host, `replica ${'ab'[i]}`]));
  const counts: Record<string, number> = {};
  for (const { upstream } of answers) {
    const name = upstream === null ? 'direct' : (names.get(upstream) ?? upstream);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
