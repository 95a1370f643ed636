import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { getDeviceId } from './device';
import { takeEarlyAnswer } from './early-answers';
import { endRefusedSession, forceLogout, graphqlRefusal, refusalCode, UNAUTHENTICATED_MESSAGE } from './forced-logout';
import { authHeaders } from './request-headers';
import { getToken, onSessionCleared } from './stored-session';

// Failures of these are answered by the sign-in screens themselves: a wrong password is not a
// session that ended, and a failed logout must not raise a second notice.
const SESSION_OPERATIONS = new Set(['Login', 'Register', 'Logout']);

const errorLink = new ErrorLink(({ error, operation }) => {
  if (SESSION_OPERATIONS.has(operation.operationName ?? '') || !getToken()) return;
  // A query sent ahead of the session check (PREFETCH) leaves a refused session to that check,
  // which ends it with one notice.
  if ((operation.getContext() as { prefetch?: boolean }).prefetch) return;
  if (CombinedGraphQLErrors.is(error)) {
    const refusal = graphqlRefusal(error.errors);
    if (refusal) endRefusedSession(refusal.code, refusal.message);
  } else if (ServerError.is(error)) {
    const code = refusalCode(error.statusCode);
    if (code) endRefusedSession(code, error.bodyText);
  }
});

/** The context of a query sent before the stored session has been checked. */
export const PREFETCH = { prefetch: true };

const authLink = new SetContextLink((prev) => ({
  headers: { ...(prev.headers as Record<string, string> | undefined), ...authHeaders() },
}));

// The first screen's requests may have been answered already (early-answers.ts).
const httpLink = new HttpLink({
  uri: '/graphql',
  credentials: 'include',
  fetch: (input, init) => takeEarlyAnswer(init?.body) ?? fetch(input, init),
});

function wsUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${window.location.host}/graphql`;
}

// Lazy: the socket opens with the first subscription and reads the token at that moment.
export const wsClient = createClient({
  url: wsUrl,
  connectionParams: () => {
    const token = getToken();
    return { ...(token ? { authorization: `Bearer ${token}` } : {}), deviceId: getDeviceId() };
  },
  on: {
    closed: (event) => {
      // graphql-ws closes with 4401/4403 when connection_init is refused: the token is no good.
      const code = (event as { code?: number } | undefined)?.code;
      if ((code === 4401 || code === 4403) && getToken()) forceLogout(UNAUTHENTICATED_MESSAGE);
    },
  },
});

const transport = ApolloLink.split(
  (operation) => operation.operationType === OperationTypeNode.SUBSCRIPTION,
  new GraphQLWsLink(wsClient),
  ApolloLink.from([authLink, httpLink]),
);

interface PageOfRefs {
  total: number;
  items: readonly unknown[];
}

export const apolloClient = new ApolloClient({
  link: ApolloLink.from([errorLink, transport]),
  cache: new InMemoryCache({
    typePolicies: {
      Query: {
        fields: {
          // The library loads page after page as it is scrolled: one list per search, sort, filter and page
          // size (the "Recently added" shelf is a short list of its own), each page placed at its offset.
          // A first page (a new visit or a refetch) starts the list afresh.
          audioFiles: {
            keyArgs: ['search', 'sort', 'limit', 'authorId', 'narratorId', 'seriesId', 'genre'],
            merge(existing: PageOfRefs | undefined, incoming: PageOfRefs, { args }) {
              const offset = typeof args?.offset === 'number' ? args.offset : 0;
              if (!existing || offset === 0) return incoming;
              return { ...incoming, items: [...existing.items.slice(0, offset), ...incoming.items] };
            },
          },
        },
      },
    },
  }),
});

// Cached data belongs to the account that just left.
onSessionCleared(() => void apolloClient.clearStore());
