import { defaultFieldResolver, isObjectType, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import { Extensions } from 'type-graphql';
import { assertScopes, type ApiKeyScope, type ScopeRequirement } from '../api-key-scopes.js';
import type { GqlContext } from './context.js';

/** Where a field's requirement is kept in the built schema (`field.extensions`). */
const SCOPES = 'apiKeyScopes';

/**
 * What a field asks of an API key: every scope named (none: only the key itself, as for reading
 * who it acts for). On a root field or on an object field that reveals more than the field that
 * reached it.
 */
export const Scopes = (...scopes: ApiKeyScope[]) => Extensions({ [SCOPES]: scopes });

/** A field only a person's signed-in device may use: API keys are refused. */
export const DeviceOnly = () => Extensions({ [SCOPES]: 'deviceOnly' });

/** The requirement a field declares, if any. */
export function scopesOf(field: {
  extensions?: Readonly<Record<string, unknown>> | null;
}): ScopeRequirement | undefined {
  return field.extensions?.[SCOPES] as ScopeRequirement | undefined;
}

type Field = Pick<GraphQLFieldConfig<unknown, GqlContext>, 'resolve' | 'subscribe' | 'extensions'>;

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
 * Puts the scope check in front of every root field (queries, mutations, subscriptions), one
 * without a decision being refused to keys, and of the object fields that declare one; other
 * fields cost nothing more. Over HTTP and WebSocket alike.
 */
export function guardSchemaScopes(schema: GraphQLSchema): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
    (t) => t != null,
  );
  for (const root of roots) for (const field of Object.values(root.getFields())) guardField(field, scopesOf(field));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.includes(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const required = scopesOf(field);
      if (required !== undefined) guardField(field, required);
    }
  }
  return schema;
}
