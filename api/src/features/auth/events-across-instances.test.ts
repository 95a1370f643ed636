import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import { createAdminSession, createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';

// Two API processes' worth of app sharing one PostgreSQL and one Redis, as replicas behind a
// load balancer would. Needs the machine's PostgreSQL and Redis (CI has both).
const postgresUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  db = await createTestDatabase(postgresUrl);
  a = await startTestApp({ databaseUrl: db.url, env: { REDIS_URL: redisUrl } });
  b = await startTestApp({ databaseUrl: db.url, env: { REDIS_URL: redisUrl } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

describe('security events across instances', () => {
  it('reaches a subscriber on instance A when an admin acts on instance B', async () => {
    const user = await createUser(a);
    const session = await signIn(a, user.email);
    const stream = await subscribeSecurityEvents(a.url, session);
    try {
      const admin = await createAdminSession(b);
      const res = await b.rest('DELETE', `/admin/users/${user.id}/sessions/${session.sessionId}`, undefined, admin);
      expect(res.status).toBe(200);
      const event = await stream.next();
      expect(event.type).toBe('SESSION_TERMINATED');
      expect((await a.rest('GET', '/auth/me', undefined, session)).status).toBe(401);
    } finally {
      await stream.close();
    }
  });
});
