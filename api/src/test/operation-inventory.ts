import type { GraphQLSchema } from 'graphql';
import { byteRoutes } from '../http/byte-server.js';
import { restRoutes } from '../http/rest-routes.js';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** Every REST route the app serves under /api/v1, as 'METHOD /path', read from the Express router and the byte routes. */
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
  walk((restRoutes() as unknown as { stack: RouterLayer[] }).stack);
  for (const route of byteRoutes) for (const method of route.methods) found.push(`${method} ${route.path}`);
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
