import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Session } from './factories.js';

export interface SecurityEventMessage {
  type: string;
  message: string;
  fileId: string | null;
}

export interface EventStream {
  events: SecurityEventMessage[];
  /** Resolves with the first event matching, or rejects after the timeout. */
  next(timeoutMs?: number): Promise<SecurityEventMessage>;
  close(): Promise<void>;
}

/** Subscribes to securityEvents over graphql-ws the way the web app does. */
export async function subscribeSecurityEvents(baseUrl: string, session: Session): Promise<EventStream> {
  const client: Client = createClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${session.token}`, deviceId: session.deviceId },
    retryAttempts: 0,
    lazy: false,
  });
  const events: SecurityEventMessage[] = [];
  const waiters: ((e: SecurityEventMessage) => void)[] = [];
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('closed', (e) => reject(new Error(`closed: ${(e as { code?: number }).code}`)));
  });
  client.subscribe<{ securityEvents: SecurityEventMessage }>(
    { query: 'subscription { securityEvents { type message fileId } }' },
    {
      next: ({ data }) => {
        if (!data) return;
        events.push(data.securityEvents);
        waiters.shift()?.(data.securityEvents);
      },
      error: () => {},
      complete: () => {},
    },
  );
  // Give the server a moment to register the subscription before the caller triggers events.
  await new Promise((r) => setTimeout(r, 150));
  let consumed = 0;
  return {
    events,
    next(timeoutMs = 5000) {
      if (consumed < events.length) return Promise.resolve(events[consumed++]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no security event arrived')), timeoutMs);
        waiters.push((e) => {
          clearTimeout(timer);
          consumed++;
          resolve(e);
        });
      });
    },
    close: () => client.dispose() as Promise<void>,
  };
}
