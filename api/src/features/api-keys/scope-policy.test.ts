import { createPubSub } from '@graphql-yoga/subscription';
import { describe, expect, it } from 'vitest';
import type { AppPubSub } from '../../event-bus.js';
import { createSchema } from '../../compose/schema.js';
import { graphqlOperations, restOperations } from '../../test/operation-inventory.js';
import { ApiKeyScope } from './api-key-scopes.js';
import { restRequirement } from './scope-guard.js';
import { graphqlScopes, restScopes } from './scope-policy.js';

describe('the API key scope policy', () => {
  it('decides every GraphQL root field and names only fields that exist', async () => {
    const schema = await createSchema(createPubSub() as AppPubSub);
    const typeName = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as Record<string, string>;
    const rootFields = graphqlOperations(schema)
      .map((op) => op.split(' '))
      .map(([kind, name]) => `${typeName[kind]}.${name}`);
    expect(rootFields.filter((c) => !(c in graphqlScopes))).toEqual([]);
    for (const coordinate of Object.keys(graphqlScopes)) {
      const [typeName, field] = coordinate.split('.');
      const type = schema.getType(typeName) as { getFields?: () => Record<string, unknown> } | undefined;
      expect(type?.getFields?.()[field], coordinate).toBeDefined();
    }
  });

  it('decides every REST route, and every entry is a route', () => {
    const routes = restOperations().filter((r) => !r.startsWith('HEAD '));
    const undecided = routes.filter((r) => {
      const [method, path] = r.split(' ');
      return restRequirement(method, path.replace(/:(\w+)/g, 'x-$1')) === undefined;
    });
    expect(undecided).toEqual([]);
    const listed = restScopes.map((r) => `${r.method} ${r.path}`);
    expect(listed.filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('matches specific paths before their :id neighbours', () => {
    expect(restRequirement('GET', '/admin/files/stats')).toEqual(['library:read', 'users:read']);
    expect(restRequirement('GET', '/admin/users/count')).toEqual(['users:read']);
    expect(restRequirement('DELETE', '/devices/others')).toBe('deviceOnly');
    expect(restRequirement('HEAD', '/files/cover/abc')).toEqual(['library:read']);
    expect(restRequirement('GET', '/nowhere')).toBeUndefined();
  });

  it("asks the stream scope of the key's audio route alone, and leaves the player's stream operations to devices", () => {
    const restAsking = restScopes.filter((r) => r.scopes.includes(ApiKeyScope.STREAM));
    expect(restAsking.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /files/:id/audio']);
    expect(restRequirement('GET', '/files/x/audio')).toEqual([ApiKeyScope.STREAM]);
    expect(restRequirement('HEAD', '/files/x/audio')).toEqual([ApiKeyScope.STREAM]);
    expect(Object.values(graphqlScopes).flat()).not.toContain(ApiKeyScope.STREAM);
    for (const path of ['/drm/session/x', '/drm/signed-url/x', '/files/x/chapters/y/stream-url']) {
      expect(restRequirement('POST', path), path).toBe('deviceOnly');
    }
    for (const path of ['/drm/stream/x', '/drm/signed/x', '/chapters/x/key', '/chapters/x/segments/t/s.ts']) {
      expect(restRequirement('GET', path), path).toBe('deviceOnly');
    }
    expect(graphqlScopes['Mutation.createStreamSession']).toBe('deviceOnly');
  });
});
