import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from './config.js';
import type { AppPubSub } from './event-bus.js';
import type { Logger } from './logger.js';

/**
 * Everything a service needs that lives as long as the app. Each feature adds what it keeps here
 * (its limiters, caches, meters) by declaration merging, next to the code that makes it, so the
 * kernel names no feature; the composition root (compose/app-deps.ts) assembles them.
 */
export interface AppDeps {
  config: AppConfig;
  pubSub: AppPubSub;
  logger: Logger;
  /** What the features take back when a device session signs out (their cookies), called by sign-out. */
  onSignOut: readonly ((ctx: Ctx) => void)[];
}

/**
 * The kinds of caller, each added by the feature that authenticates it (a signed-in device session:
 * auth/caller.ts; an API key: api-keys/api-key-caller.ts), by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features
export interface CallerKinds {}

/** Who is asking: a signed-in user on one of their device sessions, or an API key acting for a user. */
export type Caller = CallerKinds[keyof CallerKinds];

/** Facts about the request, kept for audit entries and device records. */
export interface RequestMeta {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
}

export interface CookieOptions {
  path: string;
  maxAgeMs?: number;
}

/** The request's cookies, and its response's (HttpOnly, SameSite=Strict, Secure over TLS). */
export interface CookieJar {
  get(name: string): string | null;
  set(name: string, value: string, options: CookieOptions): void;
  clear(name: string, options: Pick<CookieOptions, 'path'>): void;
}

/** What a service call gets: a request-scoped EntityManager, the caller if any, and the request. */
export interface Ctx {
  em: EntityManager;
  deps: AppDeps;
  meta: RequestMeta;
  caller: Caller | null;
  /** Absent where there is no HTTP response to set them on (WebSocket subscriptions). */
  cookies?: CookieJar;
}
