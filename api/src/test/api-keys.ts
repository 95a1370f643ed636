import { expect } from 'vitest';
import type { Session } from './factories.js';
import type { CallOptions, GqlResponse, TestApp } from './harness.js';

export interface CreatedKey {
  secret: string;
  apiKey: { id: string; prefix: string; status: string; scopes: string[] };
}

export interface KeyInput extends Record<string, unknown> {
  userId: string;
  scopes: string[];
  name?: string;
}

/** createApiKey as `admin`, answered as it comes (refusals included). */
export function createKey(t: TestApp, admin: Session, input: KeyInput): Promise<GqlResponse<{ createApiKey: CreatedKey }>> {
  return t.gql<{ createApiKey: CreatedKey }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id prefix status scopes } } }',
    { input: { name: 'sync script', ...input } },
    admin,
  );
}

/** A new key for `userId` with `scopes` (GraphQL names, e.g. LIBRARY_READ), made by `admin`. */
export async function newKey(
  t: TestApp,
  admin: Session,
  userId: string,
  scopes: string[],
  extra: Record<string, unknown> = {},
): Promise<CreatedKey> {
  const res = await createKey(t, admin, { userId, scopes, ...extra });
  expect(res.errors).toBeUndefined();
  return res.data!.createApiKey;
}

/** Call options that send the key as its bearer token (no device id: a key is not a device). */
export const asKey = (secret: string): CallOptions => ({ token: secret });
