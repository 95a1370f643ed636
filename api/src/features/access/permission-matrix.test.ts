/// <reference types="vite/client" />
import { createPubSub } from '@graphql-yoga/subscription';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppPubSub } from '../../event-bus.js';
import { createSchema } from '../../compose/schema.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { graphqlOperations, restOperations } from '../../test/operation-inventory.js';
import { Checkpoint } from '../checkpoints/checkpoint.entity.js';
import { CoverStorage } from '../files/cover.entity.js';
import { User } from '../users/user.entity.js';
import { connectionCases } from './permission-matrix.connection-cases.js';
import { fieldCases, fieldExpected, graphqlCases } from './permission-matrix.graphql-cases.js';
import { restCases } from './permission-matrix.rest-cases.js';
import {
  coveredElsewhere,
  expected,
  personas,
  type Case,
  type MatrixWorld,
  type Outcome,
  type Persona,
} from './permission-matrix.rules.js';

/**
 * Every query, mutation and REST route of the library and administration API, called as each kind
 * of caller. The operation list is read from the schema and the router, so a new operation fails
 * this test until it has a case in permission-matrix.rest-cases.ts, .graphql-cases.ts or
 * .connection-cases.ts (or is listed in `coveredElsewhere` of permission-matrix.rules.ts, with the
 * test that covers it). A feature may keep the cases of its own operations in its folder instead, as
 * `<feature>/*.permission-cases.ts` exporting `permissionCases(world)` and `coveredElsewhere`.
 */

let t: TestApp;
const sessions = {} as Record<Persona, Session | null>;
/** Which persona owns each checkpoint, to prove no response carries someone else's. */
const checkpointOwners = new Map<string, Persona>();

beforeAll(async () => {
  t = await startTestApp();
  const file = await createAudioFile(t, { title: 'Matrix file' });
  world.fileId = file.id;
  await addCover(t, file.id, CoverStorage.file);
  sessions.anonymous = null;
  sessions.admin = await createAdminSession(t);
  for (const persona of ['noGrant', 'expiredGrant', 'revokedGrant', 'liveGrant', 'locked'] as const) {
    const user = await createUser(t, { name: persona });
    sessions[persona] = await signIn(t, user.email);
  }
  world.liveUserId = sessions.liveGrant!.userId;
  await grantFile(t, sessions.expiredGrant!.userId, [file.id], { expiresAt: new Date(Date.now() - 60_000) });
  await grantFile(t, sessions.revokedGrant!.userId, [file.id], { canView: false });
  await grantFile(t, world.liveUserId, [file.id]);
  await grantFile(t, sessions.locked!.userId, [file.id]);
  await t.app.orm.em.fork().nativeUpdate(User, { id: sessions.locked!.userId }, { isLocked: true });
  for (const persona of ['liveGrant', 'admin'] as const) {
    const res = await t.rest<{ data: { id: string } }>(
      'POST',
      '/checkpoints',
      { fileId: world.fileId, timestamp: 1, name: persona },
      sessions[persona]!,
    );
    checkpointOwners.set(res.body.data.id, persona);
  }
});
afterAll(async () => {
  await t?.close();
});

async function rest(method: string, path: string, body: unknown, s: Session | null): Promise<Outcome> {
  const res = await t.rest<{ error?: { code?: string } }>(method, path, body, s ?? undefined);
  const code = res.status < 400 ? 'ok' : (res.body.error?.code ?? String(res.status));
  return { code, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) };
}

async function gql(query: string, variables: Record<string, unknown>, s: Session | null): Promise<Outcome> {
  const res = await t.gql(query, variables, s ?? undefined);
  return { code: res.errors?.[0]?.extensions?.code ?? 'ok', text: JSON.stringify(res) };
}

let counter = 0;
const fresh: MatrixWorld['fresh'] = {
  file: async () => (await createAudioFile(t, { title: `fresh ${++counter}` })).id,
  user: async () => (await createUser(t, { name: `fresh ${++counter}` })).id,
  grant: async () => {
    const [grant] = await grantFile(t, await fresh.user(), [await fresh.file()]);
    return grant.id;
  },
  checkpoint: async () => {
    const em = t.app.orm.em.fork();
    const checkpoint = em.create(Checkpoint, {
      file: world.fileId,
      user: world.liveUserId,
      timestamp: 0,
      name: 'to delete',
    });
    await em.persist(checkpoint).flush();
    return checkpoint.id;
  },
  session: async () => {
    const user = await createUser(t);
    return signIn(t, user.email);
  },
  email: () => `made-${++counter}-${Date.now()}@example.com`,
};

const world: MatrixWorld = { fileId: '', liveUserId: '', admin: () => sessions.admin!, rest, gql, fresh };
interface FeatureCases {
  permissionCases?: (w: MatrixWorld) => Record<string, Case>;
  coveredElsewhere?: Record<string, string>;
}
const featureCases = Object.values(import.meta.glob<FeatureCases>('../*/*.permission-cases.ts', { eager: true }));
const cases = {
  ...restCases(world),
  ...graphqlCases(world),
  ...connectionCases(world),
  ...Object.assign({}, ...featureCases.map((f) => f.permissionCases?.(world))),
} as Record<string, Case>;
const covered: Record<string, string> = Object.assign(
  {},
  coveredElsewhere,
  ...featureCases.map((f) => f.coveredElsewhere),
);
const fields = fieldCases(world);

describe('permission matrix', () => {
  it('has a case (or a covering test elsewhere) for every operation in the schema and the router', async () => {
    const schema = await createSchema(createPubSub() as AppPubSub);
    const all = [...graphqlOperations(schema), ...restOperations()];
    const untested = all.filter((op) => !(op in cases) && !(op in covered));
    expect(untested, 'operations with no permission case').toEqual([]);
    const stale = [...Object.keys(cases), ...Object.keys(covered)].filter((op) => !all.includes(op));
    expect(stale, 'cases for operations that no longer exist').toEqual([]);
  });

  it.each(Object.entries(cases))('%s answers each caller as it should', async (_op, c) => {
    for (const persona of personas) {
      const outcome = await c.run(sessions[persona]);
      expect(outcome.code, `${persona}: ${outcome.text.slice(0, 300)}`).toBe(expected[c.rule][persona]);
      expect(outcome.text).not.toMatch(/password_?hash|"key"|"iv"|BEGIN PRIVATE/i);
      for (const [checkpointId, owner] of checkpointOwners) {
        if (owner !== persona) expect(outcome.text, `${persona} got ${owner}'s checkpoint`).not.toContain(checkpointId);
      }
      if (outcome.code === 'ok') c.check?.(persona, outcome);
    }
  });

  it.each(Object.entries(fields))('field %s answers each caller as it should', async (_field, c) => {
    for (const persona of personas) {
      const outcome = await c.run(sessions[persona]);
      expect(outcome.code, persona).toBe(fieldExpected[persona]);
    }
  });

  it('answers NOT_FOUND for unknown ids and BAD_USER_INPUT for ids of the wrong shape', async () => {
    const admin = sessions.admin;
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      '/files/',
      '/admin/files/',
      '/admin/users/',
      '/admin/file-access/file/',
      '/checkpoints/file/',
    ]) {
      expect((await rest('GET', `${path}${missing}`, undefined, admin)).code, path).toBe('NOT_FOUND');
      expect((await rest('GET', `${path}not-an-id`, undefined, admin)).code, path).toBe('BAD_USER_INPUT');
    }
    expect((await gql('query ($id: ID!) { audioFile(id: $id) { id } }', { id: missing }, admin)).code).toBe(
      'NOT_FOUND',
    );
    expect((await gql('mutation ($id: ID!) { revokeAccess(id: $id) { id } }', { id: 'nope' }, admin)).code).toBe(
      'BAD_USER_INPUT',
    );
  });
});
