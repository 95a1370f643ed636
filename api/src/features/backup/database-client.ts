import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * A connection of the app's own pool, lent for `use` and given back after. A backup and a restore
 * speak COPY, which needs the driver's client itself, and they must not open a connection of
 * their own: the embedded database serves exactly one (DESIGN.md section 3), so a second client
 * would be refused, and the pool queues the app's other queries behind this one instead.
 */
export async function withPoolClient<T>(em: EntityManager, use: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  const knexClient = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<pg.ClientBase>;
    releaseConnection(client: pg.ClientBase): Promise<unknown>;
  };
  const client = await knexClient.acquireConnection();
  try {
    return await use(client);
  } finally {
    await knexClient.releaseConnection(client);
  }
}

/** Runs `use` in one transaction of `mode`, committed if it returns and rolled back if it throws. */
export async function inTransaction<T>(client: pg.ClientBase, mode: string, use: () => Promise<T>): Promise<T> {
  await client.query(`begin ${mode}`);
  try {
    const result = await use();
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
