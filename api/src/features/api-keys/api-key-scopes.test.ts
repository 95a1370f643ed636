import { createPubSub } from '@graphql-yoga/subscription';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../compose/routes.js';
import type { AppPubSub } from '../../event-bus.js';
import { createSchema } from '../../compose/schema.js';
import { scopesOf } from '../../graphql/scopes.js';
import { RouteTable } from '../../http/path-match.js';
import { graphqlOperations, restOperations } from '../../test/operation-inventory.js';
import { ApiKeyScope } from './api-key-scopes.js';

const table = new RouteTable(apiRoutes);
const restRequirement = (method: string, path: string) => table.find(method, path)?.route.scopes;

/** Every field of the schema that declares what it asks of an API key, as 'Type.field'. */
function decidedFields(schema: GraphQLSchema) {
  return Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .flatMap((type) =>
      Object.values(type.getFields()).map((field) => ({ coordinate: `${type.name}.${field.name}`, field })),
    )
    .filter(({ field }) => scopesOf(field) !== undefined);
}

describe('the API key scope policy', () => {
  it('decides every GraphQL root field, and the object fields that reveal more', async () => {
    const schema = await createSchema(createPubSub() as AppPubSub);
    const typeName = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as Record<string, string>;
    const rootFields = graphqlOperations(schema)
      .map((op) => op.split(' '))
      .map(([kind, name]) => `${typeName[kind]}.${name}`);
    const decided = new Map(decidedFields(schema).map(({ coordinate, field }) => [coordinate, scopesOf(field)]));
    expect(rootFields.filter((c) => !decided.has(c))).toEqual([]);
    expect(decided.get('AudioFile.fileAccesses')).toEqual([ApiKeyScope.ACCESS_WRITE]);
    expect(decided.get('DashboardStats.ripAlerts')).toEqual([ApiKeyScope.AUDIT_READ]);
    expect(decided.get('User.ripSuspectedAt')).toEqual([ApiKeyScope.AUDIT_READ]);
    expect([...decided.values()].flat()).not.toContain(ApiKeyScope.STREAM);
    expect(decided.get('Mutation.createStreamSession')).toBe('deviceOnly');
  });

  it('decides every REST route', () => {
    const undecided = restOperations().filter((r) => {
      const [method, path] = r.split(' ');
      return restRequirement(method, path.replace(/:(\w+)/g, 'x-$1')) === undefined;
    });
    expect(undecided).toEqual([]);
  });

  it('matches specific paths before their :id neighbours', () => {
    expect(restRequirement('GET', '/admin/files/stats')).toEqual(['library:read', 'users:read']);
    expect(restRequirement('GET', '/admin/users/count')).toEqual(['users:read']);
    expect(restRequirement('DELETE', '/devices/others')).toBe('deviceOnly');
    expect(restRequirement('HEAD', '/files/cover/abc')).toEqual(['library:read']);
    expect(restRequirement('GET', '/nowhere')).toBeUndefined();
  });

  it("asks the stream scope of the key's audio route alone, and leaves the player's stream operations to devices", () => {
    const restAsking = apiRoutes.filter((r) => r.scopes.includes(ApiKeyScope.STREAM));
    expect(restAsking.map((r) => `${r.method.toUpperCase()} ${r.path}`)).toEqual([
      'GET /files/:id/audio',
      'HEAD /files/:id/audio',
    ]);
    expect(restRequirement('GET', '/files/x/audio')).toEqual([ApiKeyScope.STREAM]);
    expect(restRequirement('HEAD', '/files/x/audio')).toEqual([ApiKeyScope.STREAM]);
    for (const path of ['/drm/session/x', '/drm/signed-url/x', '/files/x/chapters/y/stream-url']) {
      expect(restRequirement('POST', path), path).toBe('deviceOnly');
    }
    for (const path of ['/drm/stream/x', '/drm/signed/x', '/chapters/x/key', '/chapters/x/segments/t/s.ts']) {
      expect(restRequirement('GET', path), path).toBe('deviceOnly');
    }
  });
});
