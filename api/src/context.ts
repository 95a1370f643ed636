import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from './config.js';
import type { ApiKeyScope } from './api-key-scopes.js';
import type { DeviceSession } from './features/auth/device-session.entity.js';
import type { User } from './features/users/user.entity.js';
import type { AppPubSub } from './event-bus.js';
import type { AccessFactsCaches } from './features/playback/access-facts-cache.js';
import type { FailureLocks, SignInLimits } from './features/auth/rate-limiter.js';
import type { RipMeter } from './features/rip-detection/rip-meter.js';
import type { Logger } from './logger.js';
import type { RateLimiter } from './rate-limits.js';

/** Everything a service needs that lives as long as the app. */
export interface AppDeps {
  config: AppConfig;
  pubSub: AppPubSub;
  logger: Logger;
  /** Sign-in attempts per client address and per account (or per known device); registrations per address. */
  signInLimits: SignInLimits;
  /**
   * Changes of their own email per account: each answer tells whether an address has an account,
   * which sign-in takes care to hide, so a signed-in user may not probe addresses at will.
   */
  emailChangeLimiter: RateLimiter;
  /** The temporary sign-in lock for emails without an account, so guesses cannot tell them apart. */
  phantomLocks: FailureLocks;
  /** Wrong passwords from each account's known devices, per (account, device): a run of their own. */
  knownDeviceLocks: FailureLocks;
  /** Listening-progress saves per device session. */
  progressLimiter: RateLimiter;
  /** What byte requests are checked against, kept between requests (access-facts-cache.ts). */
  accessFacts: AccessFactsCaches;
  /** Requests per API key per minute, each key with its own limit. */
  apiKeyLimiter: RateLimiter;
  /** What each device session has been served, against real time (rip-detection/rip-meter.ts). */
  ripMeter: RipMeter;
}

/** Who is asking: a signed-in user on one of their device sessions, or an API key acting for a user. */
export type Caller = SessionCaller | ApiKeyCaller;

export interface SessionCaller {
  user: User;
  session: DeviceSession;
  apiKey: null;
}

/** A service credential: never a device session, limited to its scopes and to its user's rights. */
export interface ApiKeyCaller {
  user: User;
  session: null;
  apiKey: ApiKeyCredential;
}

export interface ApiKeyCredential {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
  rateLimitPerMinute: number;
}

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
