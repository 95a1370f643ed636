import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export const MAX_DEPTH = 12;
export const MAX_FIELDS = 1500;
/**
 * Selections walked with fragments expanded at every spread. Spreads that select no field (a
 * fragment spread twice in each of 30 nested fragments) would otherwise take 2^30 steps without
 * ever reaching MAX_FIELDS, in validation, before anything else refuses the document.
 */
export const MAX_SELECTIONS = 5000;
/**
 * Top-level fields per operation: each is its own database work (a list, a mutation), and aliases
 * would otherwise let one request run hundreds of them.
 */
export const MAX_ROOT_FIELDS = 20;

/**
 * Introspection (`__schema`, `__type`) is exempt from MAX_DEPTH: the standard introspection query
 * of graphql-js, which GraphiQL, Apollo Sandbox, Postman and graphql-codegen send, nests 13 levels
 * through its `ofType` chain. What makes introspection costly is going from a type to a list of
 * types again and again (`fields { type { fields { ... } } }`): a path through it may take at most
 * INTROSPECTION_LISTS such steps (the standard query takes two: `types`, then `fields`), and be at
 * most MAX_INTROSPECTION_DEPTH deep. Only meta-fields live there, so no ordinary field escapes
 * MAX_DEPTH; the field and selection counts apply throughout.
 */
export const MAX_INTROSPECTION_DEPTH = 24;
export const INTROSPECTION_LISTS = 2;
const typeLists = new Set(['types', 'fields', 'inputFields', 'interfaces', 'possibleTypes']);
const introspectionRoots = new Set(['__schema', '__type']);

/** Where a walk is inside an introspection field: its depth there and the type lists it went through. */
interface IntrospectionPath {
  depth: number;
  lists: number;
}

/**
 * Refuses documents nested deeper than MAX_DEPTH, selecting more than MAX_FIELDS fields, or
 * expanding to more than MAX_SELECTIONS selections.
 */
export function queryLimitsRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  let fields = 0;
  let rootFields = 0;
  let walked = 0;
  let introspectionTooDeep = false;
  const walk = (set: SelectionSetNode, depth: number, seen: Set<string>, intro: IntrospectionPath | null): number => {
    let deepest = depth;
    for (const sel of set.selections) {
      if (++walked > MAX_SELECTIONS) return deepest;
      if (sel.kind === Kind.FIELD) {
        fields += 1;
        if (depth === 1) rootFields += 1;
        const name = sel.name.value;
        let inner = intro && { depth: intro.depth + 1, lists: intro.lists + (typeLists.has(name) ? 1 : 0) };
        if (!inner && depth === 1 && introspectionRoots.has(name)) inner = { depth: 1, lists: 0 };
        if (inner && (inner.depth > MAX_INTROSPECTION_DEPTH || inner.lists > INTROSPECTION_LISTS))
          introspectionTooDeep = true;
        else if (sel.selectionSet) {
          const below = walk(sel.selectionSet, depth + 1, seen, inner);
          // Inside introspection the path rules above stand in for MAX_DEPTH.
          if (!inner) deepest = Math.max(deepest, below);
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, walk(sel.selectionSet, depth, seen, intro));
      } else {
        const frag = fragments.get(sel.name.value);
        if (frag && !seen.has(frag.name.value)) {
          deepest = Math.max(deepest, walk(frag.selectionSet, depth, new Set([...seen, frag.name.value]), intro));
        }
      }
      if (fields > MAX_FIELDS) return deepest;
    }
    return deepest;
  };
  return {
    OperationDefinition(node) {
      fields = 0;
      rootFields = 0;
      walked = 0;
      introspectionTooDeep = false;
      const depth = walk(node.selectionSet, 1, new Set(), null);
      if (walked > MAX_SELECTIONS) {
        context.reportError(
          new GraphQLError(`Query is too large (at most ${MAX_SELECTIONS} selections with fragments expanded)`, {
            nodes: [node],
          }),
        );
        return;
      }
      if (introspectionTooDeep) {
        context.reportError(
          new GraphQLError(
            `Introspection is nested too deeply (at most ${INTROSPECTION_LISTS} type lists and ${MAX_INTROSPECTION_DEPTH} levels on a path)`,
            { nodes: [node] },
          ),
        );
      }
      if (depth > MAX_DEPTH) {
        context.reportError(
          new GraphQLError(`Query is nested too deeply (at most ${MAX_DEPTH} levels)`, { nodes: [node] }),
        );
      }
      if (rootFields > MAX_ROOT_FIELDS) {
        context.reportError(
          new GraphQLError(`Query asks for too many top-level fields (at most ${MAX_ROOT_FIELDS})`, { nodes: [node] }),
        );
      }
      if (fields > MAX_FIELDS) {
        context.reportError(
          new GraphQLError(`Query selects too many fields (at most ${MAX_FIELDS})`, { nodes: [node] }),
        );
      }
    },
  };
}

/** The WebSocket serves subscriptions only: queries and mutations go over HTTP, with its plugins. */
export function subscriptionsOnlyRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation === OperationTypeNode.SUBSCRIPTION) return;
      context.reportError(
        new GraphQLError('Only subscriptions are served over the WebSocket; send queries and mutations over HTTP', {
          nodes: [node],
        }),
      );
    },
  };
}
