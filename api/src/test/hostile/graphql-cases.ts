import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { idPayloads, NUL_PAYLOAD, OVERLONG, textPayloads, wrongTypesFor } from './payloads.js';

export type Kind = 'query' | 'mutation' | 'subscription';

export interface GraphqlVariant {
  /** What was changed, for the failure message. */
  label: string;
  variables: Record<string, unknown>;
  /** The text stored by this variant if it is accepted, and the input field that carries it. */
  stored?: { field: string; text: string };
  /** Payloads that must never be accepted (wrong type, null for non-null, NUL). */
  mustBeRefused: boolean;
  /** One of the few variants also sent by callers who are refused before validation matters. */
  core: boolean;
}

export interface GraphqlOperationCases {
  operation: string;
  kind: Kind;
  document: string;
  variants: GraphqlVariant[];
}

let unique = 0;

/** A well-formed value for an argument, so one hostile part at a time reaches the service. */
function baseValue(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return baseValue(type.ofType, name);
  if (isListType(type)) return [baseValue(type.ofType, name)];
  if (isInputObjectType(type)) {
    return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, baseValue(f.type, f.name)]));
  }
  if (isEnumType(type)) return type.getValues()[0].value;
  switch (type.name) {
    case 'ID':
      return randomUUID();
    case 'Int':
    case 'Float':
      return /time|timestamp/i.test(name) ? 0 : 1;
    case 'Boolean':
      return false;
    case 'DateTimeISO':
      return new Date(Date.now() + 86_400_000).toISOString();
    case 'JSONObject':
      return { note: 'hostile' };
    default:
      if (/email/i.test(name)) return `hostile-${++unique}-${Date.now()}@example.com`;
      if (/password/i.test(name)) return 'long-enough-password-1';
      if (/hash/i.test(name)) return 'a'.repeat(64);
      return `text ${++unique}`;
  }
}

/** The wrong-typed values for one leaf or input object. */
function wrongValues(type: GraphQLInputType): unknown[] {
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) return wrongTypesFor('list');
  if (isInputObjectType(named)) return wrongTypesFor('object');
  if (isEnumType(named)) return ['NOT_A_VALUE', 1, "admin' --"];
  switch (named.name) {
    case 'Int':
    case 'Float':
      return wrongTypesFor('number');
    case 'Boolean':
      return wrongTypesFor('boolean');
    case 'DateTimeISO':
      return ['not a date', '9999-99-99T99:99:99Z', 1, { $gt: '' }];
    case 'JSONObject':
      return ['not an object', [1]];
    default:
      return wrongTypesFor('string');
  }
}

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(root);
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

interface Slot {
  path: (string | number)[];
  type: GraphQLInputType;
}

/** Every argument, input field and list item a caller can fill, with its type. */
function slots(type: GraphQLInputType, path: (string | number)[]): Slot[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  const here = { path, type };
  if (isListType(inner)) return [here, ...slots(inner.ofType, [...path, 0])];
  if (isInputObjectType(inner)) {
    return [here, ...Object.values(inner.getFields()).flatMap((f) => slots(f.type, [...path, f.name]))];
  }
  return [here];
}

function variantsFor(field: GraphQLField<unknown, unknown>): GraphqlVariant[] {
  const base = Object.fromEntries(field.args.map((a) => [a.name, baseValue(a.type, a.name)]));
  const variants: GraphqlVariant[] = [];
  for (const arg of field.args) {
    for (const slot of slots(arg.type, [arg.name])) {
      const where = slot.path.join('.');
      const named = getNamedType(slot.type);
      const fieldName = String([...slot.path].reverse().find((p) => typeof p === 'string'));
      const put = (value: unknown) => setAt(base, slot.path, value);
      wrongValues(slot.type).forEach((wrong, i) => {
        const label = `${where} = ${JSON.stringify(wrong).slice(0, 40)}`;
        variants.push({ label, variables: put(wrong), mustBeRefused: true, core: i === 0 });
      });
      if (isNonNullType(slot.type)) {
        variants.push({ label: `${where} = null`, variables: put(null), mustBeRefused: true, core: false });
      }
      if (named.name === 'JSONObject') {
        // Valid JSON, just deep: it may be stored (the body limit bounds it) but must not crash anything.
        variants.push({
          label: `${where}: 2000 levels deep`,
          variables: put(nested(2000)),
          mustBeRefused: false,
          core: false,
        });
      }
      if (isListType(isNonNullType(slot.type) ? slot.type.ofType : slot.type)) {
        const [item] = baseValue(slot.type, fieldName) as unknown[];
        variants.push({
          label: `${where}: 2000 items`,
          variables: put(Array(2000).fill(item)),
          mustBeRefused: false,
          core: false,
        });
      }
      if (!isLeafType(named) || isEnumType(named) || !['String', 'ID'].includes(named.name)) continue;
      const texts = named.name === 'ID' ? idPayloads : [...textPayloads, OVERLONG];
      texts.forEach((text, i) => {
        variants.push({
          label: `${where} = ${JSON.stringify(text.slice(0, 40))}`,
          variables: put(text),
          stored: named.name === 'String' ? { field: fieldName, text } : undefined,
          mustBeRefused: false,
          core: i % 5 === 0 || text === OVERLONG,
        });
      });
      variants.push({ label: `${where} with NUL`, variables: put(NUL_PAYLOAD), mustBeRefused: true, core: true });
    }
  }
  return variants;
}

/** Scalar fields of the result (and of objects one level down), so the answer carries data. */
function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named) && !isInterfaceType(named)) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((f) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined))
    .map((f) => {
      if (isLeafType(getNamedType(f.type))) return f.name;
      return depth < 2 ? `${f.name} ${selection(f.type, depth + 1)}` : '';
    })
    .filter(Boolean);
  return `{ __typename ${parts.join(' ')} }`;
}

/** For every root field of the schema: a document taking all its arguments as variables, and its hostile variables. */
export function graphqlCases(schema: GraphQLSchema): GraphqlOperationCases[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([kind, root]) =>
    Object.values(root?.getFields() ?? {}).map((field) => {
      const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const document = `${kind} Hostile${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selection(field.type, 1)} }`;
      return { operation: `${kind} ${field.name}`, kind, document, variants: variantsFor(field) };
    }),
  );
}
