// The GraphQL requests the stages send. webOperation() reads the web app's own documents
// (web/src/**/*.graphql) at run time and clientRequest() sends them as its Apollo client does, so
// the GraphQL and mixed stages cannot drift from the client. The login and live-events stages still
// send the text below, their own: the web app signs in over a plain fetch, not Apollo.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { addTypenameToDocument, print } from '@apollo/client/utilities';
import { Kind, parse, visit } from 'graphql';
import { repoRoot } from './paths.mjs';

const WEB_SOURCES = path.join(repoRoot, 'web/src');
const apolloVersion = JSON.parse(
  readFileSync(path.join(repoRoot, 'node_modules/@apollo/client/package.json'), 'utf8'),
).version;
/** Apollo Client's HttpLink sends these with every operation (enhanced client awareness). */
export const CLIENT_EXTENSIONS = { clientLibrary: { name: '@apollo/client', version: apolloVersion } };
/** Apollo Client's HttpLink accept header. */
export const CLIENT_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';

let definitions = null;
/** Every operation and fragment of the web app's .graphql files (under web/src), by name; read once. */
function webDefinitions() {
  if (definitions) return definitions;
  definitions = { operations: new Map(), fragments: new Map() };
  for (const entry of readdirSync(WEB_SOURCES, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.graphql')) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const def of parse(readFileSync(file, 'utf8')).definitions) {
      if (def.kind === Kind.OPERATION_DEFINITION) definitions.operations.set(def.name.value, def);
      if (def.kind === Kind.FRAGMENT_DEFINITION) definitions.fragments.set(def.name.value, def);
    }
  }
  return definitions;
}

/**
 * The operation `name` of the web app's .graphql files as its Apollo client prints it: the
 * operation, then every fragment it spreads (directly or through other fragments), __typename
 * added to each selection set by Apollo's own transform. Returns { operationName, query }.
 */
export function webOperation(name) {
  const { operations, fragments } = webDefinitions();
  const operation = operations.get(name);
  if (!operation) throw new Error(`no operation ${name} in web/src/**/*.graphql`);
  const used = [];
  const collect = (node) =>
    visit(node, {
      FragmentSpread(spread) {
        const fragmentName = spread.name.value;
        if (used.some((f) => f.name.value === fragmentName)) return;
        const fragment = fragments.get(fragmentName);
        if (!fragment) throw new Error(`${name} spreads ${fragmentName}, defined in no web/src .graphql file`);
        used.push(fragment);
        collect(fragment);
      },
    });
  collect(operation);
  const document = addTypenameToDocument({ kind: Kind.DOCUMENT, definitions: [operation, ...used] });
  return { operationName: name, query: print(document) };
}

/**
 * The library's first page as LibraryPage.tsx asks for it (its FIRST_PAGE: 24 cards, newest
 * first); the next pages change only the offset (its fetchMore).
 */
export const LIBRARY_FIRST_PAGE = { search: null, sort: 'RECENTLY_ADDED', offset: 0, limit: 24 };

/** The JSON body the web client POSTs for `operation` (from webOperation) with `variables`. */
export function clientBody(operation, variables) {
  return JSON.stringify({
    operationName: operation.operationName,
    variables,
    extensions: CLIENT_EXTENSIONS,
    query: operation.query,
  });
}

export const LOGIN_MUTATION = `mutation Login($input: LoginInput!) {
  login(input: $input) { success message requiresDeviceApproval token user { id } deviceSession { id } }
}`;

export const TERMINATE_MUTATION = `mutation AdminTerminateSession($userId: ID!, $sessionId: ID!) {
  terminateUserSession(userId: $userId, sessionId: $sessionId)
}`;

export const SECURITY_EVENTS_SUBSCRIPTION = 'subscription { securityEvents { type message fileId } }';

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
