import type { NextFunction, Request, Response } from 'express';
import { defaultFieldResolver, isObjectType, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import type { GqlContext } from '../../graphql/context.js';
import { assertScopes, type ScopeRequirement } from './api-key-scopes.js';
import { graphqlScopes, restScopes } from './scope-policy.js';

type Field = Pick<GraphQLFieldConfig<unknown, GqlContext>, 'resolve' | 'subscribe'>;

function guardField(field: Field, required: ScopeRequirement | undefined): void {
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    assertScopes(ctx.caller, required);
    return resolve(source, args, ctx, info);
  };
  const { subscribe } = field;
  if (subscribe) {
    field.subscribe = (source, args, ctx, info) => {
      assertScopes(ctx.caller, required);
      return subscribe(source, args, ctx, info);
    };
  }
}

/**
 * Puts the scope check in front of every root field (queries, mutations, subscriptions) and of the
 * object fields the policy names; other fields cost nothing more. Over HTTP and WebSocket alike.
 */
export function guardSchemaScopes(schema: GraphQLSchema): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
    (t) => t != null,
  );
  for (const root of roots) {
    for (const field of Object.values(root.getFields())) guardField(field, graphqlScopes[`${root.name}.${field.name}`]);
  }
  const rootNames = new Set(roots.map((root) => root.name));
  for (const [coordinate, required] of Object.entries(graphqlScopes)) {
    const [typeName, fieldName] = coordinate.split('.');
    const type = schema.getType(typeName);
    if (rootNames.has(typeName) || !isObjectType(type)) continue;
    const field = type.getFields()[fieldName];
    if (field) guardField(field, required);
  }
  return schema;
}

function routePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

const compiledRest = restScopes.map((r) => ({ ...r, pattern: routePattern(r.path) }));

/** The scopes a REST request under /api/v1 asks of an API key; undefined for a route not in the policy. */
export function restRequirement(method: string, path: string): ScopeRequirement | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  return compiledRest.find((r) => r.method === verb && r.pattern.test(path))?.scopes;
}

/** The REST side of the scope check, before every /api/v1 route. */
export function apiKeyScopeGuard(req: Request, res: Response, next: NextFunction): void {
  const { caller } = res.locals.ctx;
  if (caller?.apiKey) assertScopes(caller, restRequirement(req.method, req.path));
  next();
}
