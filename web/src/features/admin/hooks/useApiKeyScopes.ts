import { useQuery } from '@apollo/client/react';
import { ApiKeyScopesDocument, type ApiKeyScope, type ApiKeyScopesQuery } from '../../../gql/graphql';

export type ApiKeyScopeInfo = ApiKeyScopesQuery['apiKeyScopes'][number];

/** The API key scopes as the server defines them (name, what it allows, admin-only): asked once, then cached. */
export function useApiKeyScopes() {
  const { data } = useQuery(ApiKeyScopesDocument);
  const scopes = data?.apiKeyScopes ?? [];
  const nameOf = (scope: ApiKeyScope) => scopes.find((s) => s.scope === scope)?.name ?? scope;
  return { scopes, nameOf };
}
