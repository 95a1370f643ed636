import type { GraphQLSchema } from 'graphql';
import { apiRoutes } from '../compose/routes.js';
import { restRouter } from '../http/rest-routes.js';
import { isByteRoute } from '../http/route.js';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** Every REST route the app serves under /api/v1, as 'METHOD /path', read from the Express router and the byte server's routes. */
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
  walk((restRouter(apiRoutes) as unknown as { stack: RouterLayer[] }).stack);
  for (const route of apiRoutes.filter(isByteRoute)) found.push(`${route.method.toUpperCase()} ${route.path}`);
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
