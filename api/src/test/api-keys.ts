import { createClient } from 'graphql-ws';
import { expect } from 'vitest';
import WebSocket from 'ws';
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
export function createKey(
  t: TestApp,
  admin: Session,
  input: KeyInput,
): Promise<GqlResponse<{ createApiKey: CreatedKey }>> {
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

/**
 * A script's subscriptions to a file's chapter events with a key, over one graphql-ws socket: the
 * events and errors seen and how the socket closed. `headers` go on the WebSocket upgrade request.
 */
export function subscribeWithKey(
  baseUrl: string,
  secret: string,
  fileId: string,
  headers: Record<string, string> = {},
) {
  const events: unknown[] = [];
  const errors: { message: string; extensions?: { code?: string } }[] = [];
  let closeCode: number | null = null;
  class WebSocketWithHeaders extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocketWithHeaders,
    connectionParams: { authorization: `Bearer ${secret}` },
    retryAttempts: 0,
    lazy: false,
    // The close is what these tests wait for; the client would print it to the console.
    onNonLazyError: () => {},
  });
  const connected = new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('closed', (e) => {
      closeCode = (e as { code: number }).code;
      reject(new Error(`closed ${closeCode}`));
    });
  });
  // The caller awaits `connected` when it expects the socket to open.
  connected.catch(() => {});
  const subscribe = () =>
    client.subscribe(
      { query: `subscription { chapterEvents(fileId: "${fileId}") { fileId status } }` },
      {
        next: ({ data }) => events.push(data),
        error: (err) => errors.push(...(Array.isArray(err) ? err : [err])),
        complete: () => {},
      },
    );
  subscribe();
  return { events, errors, connected, subscribe, closeCode: () => closeCode, dispose: () => client.dispose() };
}

export async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
