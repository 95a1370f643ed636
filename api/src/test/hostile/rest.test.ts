import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { restOperations } from '../operation-inventory.js';
import {
  credentials,
  expectNoDataChange,
  inBatches,
  personas,
  sendSafely,
  signInPersonas,
  type Persona,
} from './hostile-session.js';
import { rawRequest } from './response-checks.js';
import { restCases, type RestCase } from './rest-cases.js';

/**
 * Every REST route of the router, called by each kind of caller with hostile ids in the path
 * (traversal, SQL, script, NUL, over-long), broken and wrongly typed bodies, hostile query strings
 * and oversized bodies and headers.
 */

const routes = restCases();

let t: TestApp;
let sessions: Record<Persona, Session | null>;
beforeAll(async () => {
  t = await startTestApp();
  sessions = await signInPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

/** Sends one case; true when a writing request was accepted (and so may have changed data). */
async function runCase(c: RestCase, persona: Persona): Promise<boolean> {
  const res = await sendSafely(
    t,
    { method: c.method, path: c.path, headers: { ...c.headers, ...credentials(sessions[persona]) }, body: c.body },
    `${persona}: ${c.label}`,
  );
  if (c.mustBeRefused)
    expect(res.status, `${persona}: ${c.label}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  return res.status < 400 && !['GET', 'HEAD'].includes(c.method);
}

describe('hostile REST input', () => {
  it('covers every route of the router', () => {
    expect(routes.map((r) => r.operation)).toEqual(restOperations());
  });

  it.each(routes.map((r) => [r.operation, r] as const))(
    '%s refuses hostile input from every caller without a 5xx or a data change',
    async (operation, route) => {
      for (const persona of personas) {
        const cases = persona === 'admin' ? route.cases : route.cases.filter((c) => c.core);
        await expectNoDataChange(t, `${persona} ${operation}`, async () => {
          let accepted = false;
          await inBatches(cases, 8, async (c) => {
            if (await runCase(c, persona)) accepted = true;
          });
          return accepted;
        });
      }
      for (const persona of ['user', 'admin'] as const) {
        const res = await rawRequest(t.url, {
          method: 'GET',
          path: '/api/v1/auth/me',
          headers: credentials(sessions[persona]),
        });
        expect(res.status, `${persona} is still signed in after ${operation}`).toBe(200);
      }
    },
  );

  it('answers an oversized header before any route, and nothing is served outside the API', async () => {
    for (const route of ['/api/v1/files', '/graphql', '/healthz']) {
      const res = await rawRequest(t.url, { method: 'GET', path: route, headers: { 'x-padding': 'x'.repeat(20_000) } });
      // Node's HTTP parser refuses it before the app, so there are no app headers to check.
      expect(res.status, route).toBe(431);
    }
    for (const path of [
      '/api/v1/../../../../etc/passwd',
      '/api/v1/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/files/..%2f..%2f..%2fsecret.key',
      '/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/secret.key',
      '/pgdata/PG_VERSION',
    ]) {
      const res = await sendSafely(t, { method: 'GET', path }, 'traversal outside the API');
      expect(res.text, path).not.toMatch(/root:x:0:0|"workspaces"|PG_VERSION|^\d+\s*$/);
      if (!existsSync(new URL('../../../../web/dist/index.html', import.meta.url))) {
        expect(res.status, path).toBeGreaterThanOrEqual(400);
      }
    }
  });
});
