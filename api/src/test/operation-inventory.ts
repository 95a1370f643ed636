import type { GraphQLSchema } from 'graphql';
import { byteRouters } from '../http/byte-routes.js';
import { restRoutes } from '../http/rest-routes.js';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** Every REST route the app serves under /api/v1, as 'METHOD /path', read from the Express router. */
export function restOperations(): string[] {
  const found: string[] = [];
  const walk = (stack: RouterLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          found.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  for (const router of [restRoutes(), ...byteRouters()]) walk((router as unknown as { stack: RouterLayer[] }).stack);
  return [...new Set(found)].sort();
}

/** Every root field of the schema, as 'query name', 'mutation name' or 'subscription name'. */
export function graphqlOperations(schema: GraphQLSchema): string[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([kind, type]) => Object.keys(type?.getFields() ?? {}).map((name) => `${kind} ${name}`)).sort();
}
