import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { addTypenameToDocument, print } from '@apollo/client/utilities';
import { print as printPlain } from 'graphql';
import type { DocumentNode } from 'graphql';
import { requestKey } from '../src/app/early-answers';
import type { EarlyRequest } from './page-preload';

const apolloVersion = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@apollo/client/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * A first screen's request for page-preload.js, with the body the app sends for `document` and
 * `variables`. By default Apollo Client's HTTP link's: the document with __typename added to every
 * selection set (Apollo's own transform), printed by Apollo's printer, with the client-awareness
 * extension it adds. `plain`: requestGraphql's (app/graphql-request.ts), for what the app asks
 * before Apollo loads (`me`). `cover`: where in the answer's data a cover URL to fetch at once is.
 */
export function earlyRequest(
  document: DocumentNode,
  variables: Record<string, unknown>,
  { cover, plain = false }: { cover?: (string | number)[]; plain?: boolean } = {},
): EarlyRequest {
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
  const operationName = operation?.name?.value;
  if (!operationName) throw new Error('earlyRequest: the document has no named operation');
  const body = plain
    ? JSON.stringify({ query: printPlain(document), ...(Object.keys(variables).length > 0 && { variables }) })
    : JSON.stringify({
        operationName,
        variables,
        extensions: { clientLibrary: { name: '@apollo/client', version: apolloVersion } },
        query: print(addTypenameToDocument(document)),
      });
  return { key: requestKey(operationName, variables), body, ...(cover && { cover }) };
}
