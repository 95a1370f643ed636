// The GraphQL requests the stages send: the web app's own operations, taken from the typed
// documents codegen writes for it (web/src/gql/graphql.ts, which web/src imports; Node 24 loads the
// TypeScript file as it is), sent as the web app sends them. webOperation() prints a document as
// its Apollo client does (GraphQL, mixed, live-events stages); plainOperation() as its plain-fetch
// requestGraphql does (signing in, before Apollo loads). No stage sends a query text of its own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addTypenameToDocument, print } from '@apollo/client/utilities';
import { repoRoot } from './paths.mjs';

const apolloVersion = JSON.parse(
  readFileSync(path.join(repoRoot, 'node_modules/@apollo/client/package.json'), 'utf8'),
).version;
/** Apollo Client's HttpLink sends these with every operation (enhanced client awareness). */
export const CLIENT_EXTENSIONS = { clientLibrary: { name: '@apollo/client', version: apolloVersion } };
/** Apollo Client's HttpLink accept header. */
export const CLIENT_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';

/** web/src/gql/graphql.ts: every operation's typed document (`<Name>Document`), its fragments included. */
const typedDocuments = await import(pathToFileURL(path.join(repoRoot, 'web/src/gql/graphql.ts')).href);

/** The typed document of operation `name`, as web/src imports it. */
export function webDocument(name) {
  const document = typedDocuments[`${name}Document`];
  if (!document) throw new Error(`no ${name}Document in web/src/gql/graphql.ts (run npm run codegen)`);
  return document;
}

/**
 * The operation `name` as the web app's Apollo client sends it: its typed document with
 * __typename added to each selection set by Apollo's own transform, printed. Returns
 * { operationName, query }.
 */
export function webOperation(name) {
  return { operationName: name, query: print(addTypenameToDocument(webDocument(name))) };
}

/** The operation `name` as requestGraphql (web/src/app/graphql-request.ts) sends it: printed as it is. */
export function plainOperation(name) {
  return print(webDocument(name));
}

/**
 * The library's first page as the web app asks for it (LIBRARY_FIRST_PAGE of
 * web/src/features/library/library-lists.ts: 24 cards by title, no filter); the next pages change
 * only the offset (LibraryPage's fetchMore).
 */
export const { LIBRARY_FIRST_PAGE } = await import(
  pathToFileURL(path.join(repoRoot, 'web/src/features/library/library-lists.ts')).href
);

/** The JSON body the web client POSTs for `operation` (from webOperation) with `variables`. */
export function clientBody(operation, variables) {
  return JSON.stringify({
    operationName: operation.operationName,
    variables,
    extensions: CLIENT_EXTENSIONS,
    query: operation.query,
  });
}

/** Headers of a signed-in request from `who` ({ token, deviceId }). */
export function authHeaders(who) {
  return { authorization: `Bearer ${who.token}`, 'x-device-id': who.deviceId };
}

/** The headers of the web client's GraphQL POST, signed in as `who` when given. */
export function clientHeaders(who) {
  return { 'content-type': 'application/json', accept: CLIENT_ACCEPT, ...(who ? authHeaders(who) : {}) };
}

/** Sends `operation` (from webOperation) as the web client does; resolves { status, body } like gql. */
export function clientRequest(url, operation, variables, who) {
  return postGraphql(url, clientBody(operation, variables), clientHeaders(who));
}

/** POSTs one GraphQL operation; resolves { status, body } without throwing on GraphQL errors. */
export function gql(url, query, variables, who) {
  const headers = { 'content-type': 'application/json', ...(who ? authHeaders(who) : {}) };
  return postGraphql(url, JSON.stringify({ query, variables }), headers);
}

/** POSTs a GraphQL request body (a JSON string) with `headers`; resolves { status, body } like gql. */
export async function postGraphql(url, requestBody, headers) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers,
    body: requestBody,
    signal: globalThis.AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { errors: [{ message: text.slice(0, 200) }] };
  }
  return { status: res.status, body };
}
