// GraphQL over a plain fetch for what runs before sign-in (signing in, registering, checking a
// stored session, signing out): Apollo Client loads with the signed-in pages (SignedInLayout),
// so the sign-in page does not wait for it.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { takeEarlyAnswerTo } from './early-answers';
import { authHeaders } from './request-headers';

// graphql-js's printer is loaded by the first call, not with the sign-in page: the page paints
// sooner, and the chunk is the one Apollo Client shares once signed in. The printer's own module:
// `import('graphql')` would keep all of graphql-js (schemas, validation), which only the GraphQL
// explorer uses, and every signed-in page would download it with Apollo.
let printer: Promise<typeof import('graphql').print> | null = null;
const loadPrinter = () => (printer ??= import('graphql/language/printer').then((m) => m.print));

/** The server answered with GraphQL errors; `errors[0].message` is its text for the user. */
export class GraphqlCallError extends Error {
  constructor(readonly errors: readonly { message: string; extensions?: { code?: string } }[]) {
    super(errors[0]?.message ?? 'GraphQL error');
    this.name = 'GraphqlCallError';
  }
}

/** No usable answer: the API is down, a proxy answered, or the body was not GraphQL. */
export class GraphqlNetworkError extends Error {
  override name = 'GraphqlNetworkError';
}

interface Answer<T> {
  data?: T | null;
  errors?: GraphqlCallError['errors'];
}

export async function requestGraphql<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<T> {
  let answer: Answer<T>;
  try {
    // The stored session's `me` may have been asked for by page-preload.js (early-answers.ts).
    const operationName = document.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value;
    const response = await (takeEarlyAnswerTo(operationName ?? '', variables) ??
      loadPrinter().then((print) =>
        fetch('/graphql', {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', ...authHeaders() },
          body: JSON.stringify({ query: print(document), variables }),
        }),
      ));
    answer = (await response.json()) as Answer<T>;
    if (!answer.errors?.length && !answer.data) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new GraphqlNetworkError(error instanceof Error ? error.message : String(error));
  }
  if (answer.errors?.length) throw new GraphqlCallError(answer.errors);
  return answer.data as T;
}
