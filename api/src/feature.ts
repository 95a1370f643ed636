import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import type { AppConfig } from './config.js';
import type { AppDeps, Ctx } from './context.js';
import type { AppPubSub } from './event-bus.js';
import type { Loaders } from './graphql/loaders.js';
import type { ResolverClass } from './graphql/schema.js';
import type { Route } from './http/route.js';
import type { Logger } from './logger.js';
import type { RateLimitStore } from './rate-limits.js';

/** What a feature's part of AppDeps is made from: the config, and what every feature shares. */
export interface SharedServices {
  config: AppConfig;
  logger: Logger;
  /** The event bus as it was made (before any feature wraps it: playback, to empty its caches). */
  pubSub: AppPubSub;
  /** The client events are published with, for state every replica shares; null without Redis. */
  redis: Redis | null;
  /** Counters every replica shares (in Redis when REDIS_URL is set). */
  counters: RateLimitStore;
}

/**
 * What a feature brings to the app, read by the composition root (compose/), the only code that
 * names every feature. Each part is optional: a feature brings what it has.
 */
export interface Feature<Deps extends Partial<AppDeps>, FeatureLoaders extends Partial<Loaders>> {
  name: string;
  /** Its MikroORM entities (compose/entities.ts). */
  entities?: EntityClass<object>[];
  /** Its GraphQL resolvers (compose/schema.ts). */
  resolvers?: ResolverClass[];
  /** Its per-request batch loaders for computed GraphQL fields (compose/loaders.ts). */
  loaders?: (em: EntityManager) => FeatureLoaders;
  /** Its part of AppDeps, made once when the app starts (compose/app-deps.ts). */
  deps?: (services: SharedServices) => Deps;
  /** What it starts following once every feature's deps are made: events on the bus, its worker threads. */
  events?: (deps: AppDeps) => void;
  /**
   * Work it runs beside the requests once the database is open and migrated (scheduled backups),
   * stopped before the database closes; null when its settings ask for none.
   */
  background?: (app: { orm: MikroORM; deps: AppDeps }) => { stop(): Promise<void> } | null;
  /** What it takes back when a device session signs out, in the answer to the sign-out (its cookies). */
  signOut?: (ctx: Ctx) => void;
  /** Its REST /api/v1 route declarations (compose/routes.ts): the router, byte server and OpenAPI document. */
  routes?: readonly Route[];
}

// Record<never, never>: a feature without deps or loaders adds nothing to them.
export function defineFeature<
  Deps extends Partial<AppDeps> = Record<never, never>,
  FeatureLoaders extends Partial<Loaders> = Record<never, never>,
>(feature: Feature<Deps, FeatureLoaders>): Feature<Deps, FeatureLoaders> {
  return feature;
}
