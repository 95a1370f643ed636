import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type { Redis } from 'ioredis';

/**
 * The topics and what each carries, each added by the feature that publishes it by declaration
 * merging (e.g. auth/security-events.ts), so the kernel names no feature. A topic with an id first
 * (a user's, a file's) reaches the subscribers of that id only; one without reaches every replica.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features
export interface AppEvents {}

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
