import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type { Redis } from 'ioredis';

export type SecurityEventType = 'FORCED_LOGOUT' | 'DEVICE_LOCKED' | 'SESSION_TERMINATED' | 'ACCESS_REVOKED';

export interface SecurityEventPayload {
  type: SecurityEventType;
  message: string;
  /** The device sessions it is for; null means every session of the user. */
  sessionIds: string[] | null;
  fileId: string | null;
  at: string;
}

export interface ChapterEventPayload {
  fileId: string;
  chapterId: string | null;
  status: string | null;
  at: string;
}

/** An API key (or, keyId null, every key of the user) may no longer hold: its sockets re-check it. */
export interface ApiKeyEventPayload {
  keyId: string | null;
}

/**
 * Something that may narrow who can read which file: every replica drops what it cached of that user
 * or file (access-facts-cache.ts). Security events raise it too (security-events.ts).
 */
export interface AccessChangePayload {
  userId: string | null;
  fileId: string | null;
}

/** An administrator unlocked the account: every replica forgets what its rip meter keeps of it. */
export interface AccountUnlockedPayload {
  userId: string;
}

/**
 * The topics and what each carries; a feature adds its own by declaration merging (rip detection's
 * RIP_SUSPECTED: rip-detection/rip-events.ts), so the kernel names no feature. Topics carry an id:
 * the user id for security events, the file id for chapter events. Access changes, rip alerts and
 * unlocks go to every replica (and every administrator), so they carry none.
 */
export interface AppEvents {
  SECURITY_EVENT: [userId: string, payload: SecurityEventPayload];
  CHAPTERS_CHANGED: [fileId: string, payload: ChapterEventPayload];
  ACCESS_CHANGED: [payload: AccessChangePayload];
  API_KEYS_CHANGED: [userId: string, payload: ApiKeyEventPayload];
  ACCOUNT_UNLOCKED: [payload: AccountUnlockedPayload];
}

// A mapped copy: PubSub takes a type with an index signature, which an interface does not have.
export type AppPubSub = PubSub<{ [Topic in keyof AppEvents]: AppEvents[Topic] }>;

export interface EventBus {
  pubSub: AppPubSub;
  /** The client events are published with, for counters every replica shares; null without Redis. */
  redis: Redis | null;
  close(): Promise<void>;
}

/**
 * In-process by default; through Redis when a URL is given, so events cross replicas. The Redis
 * client is loaded only then: a start without Redis does not pay for its code.
 */
export async function createEventBus(redisUrl?: string): Promise<EventBus> {
  if (!redisUrl) return { pubSub: createPubSub() as AppPubSub, redis: null, close: async () => {} };
  const [{ createRedisEventTarget }, { Redis }] = await Promise.all([
    import('@graphql-yoga/redis-event-target'),
    import('ioredis'),
  ]);
  const publishClient = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  // No ready check on the subscriber: ioredis sends it (INFO) after connecting, and a SUBSCRIBE sent
  // in between made it fail as "Connection in subscriber mode"; the reconnection that followed lost
  // the subscription, so this replica stopped hearing other replicas' access changes.
  const subscribeClient = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, enableReadyCheck: false });
  // Both are ready before anything subscribes, and the app does not start without them: a replica
  // that missed other replicas' events would keep serving revoked access from its caches.
  await Promise.all([publishClient.connect(), subscribeClient.connect()]).catch((err: unknown) => {
    publishClient.disconnect();
    subscribeClient.disconnect();
    throw err;
  });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  return {
    pubSub: createPubSub({ eventTarget }) as AppPubSub,
    redis: publishClient,
    async close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
