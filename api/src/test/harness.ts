import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createApp, type App } from '../compose/app.js';
import { loadConfig, type AppConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { inject } from 'vitest';
import { createTestDatabase } from './database.js';

export interface CallOptions {
  token?: string | null;
  deviceId?: string | null;
  headers?: Record<string, string>;
}

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface GqlResponse<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } & Record<string, unknown> }[];
}

export interface TestApp {
  app: App;
  url: string;
  config: AppConfig;
  rest<T = Record<string, unknown>>(
    method: string,
    route: string,
    body?: unknown,
    options?: CallOptions,
  ): Promise<RestResponse<T>>;
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<GqlResponse<T>>;
  close(): Promise<void>;
}

function authHeaders(options: CallOptions = {}): Record<string, string> {
  return {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.deviceId ? { 'x-device-id': options.deviceId } : {}),
    ...options.headers,
  };
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a database (for two instances sharing one); default: a new clean one. */
  databaseUrl?: string;
  /** The embedded database under DATA_DIR even when DATABASE_URL names a server (tests run on both). */
  embedded?: boolean;
  dataDir?: string;
  /**
   * Start on an empty database, which the app migrates itself; default: a copy of the run's
   * migrated template on PostgreSQL (the same migrations, applied once), empty on embedded.
   */
  emptyDatabase?: boolean;
}

/** REST calls to /api/v1 of an app at `url` (JSON bodies encoded, answers decoded when JSON). */
export function restCaller(url: string): TestApp['rest'] {
  return async (method, route, body, callOptions) => {
    const isRaw = typeof body === 'string' || body instanceof Uint8Array || body instanceof FormData;
    const res = await fetch(`${url}/api/v1${route}`, {
      method,
      headers: {
        ...(body !== undefined && !isRaw ? { 'content-type': 'application/json' } : {}),
        ...authHeaders(callOptions),
      },
      body: body === undefined ? undefined : isRaw ? (body as RequestInit['body']) : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as never };
  };
}

/** Starts the real app (createApp) on a random loopback port over a clean database. */
export async function startTestApp(
  options: StartOptions = {},
): Promise<TestApp & { databaseUrl?: string; dataDir: string }> {
  const db = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : options.embedded
      ? { url: undefined, drop: async () => {} }
      : await createTestDatabase(undefined, { template: options.emptyDatabase ? null : migratedTemplate() });
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'pal-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    // Counters of their own when test files share a Redis (two instances meant to share pass one).
    REDIS_KEY_PREFIX: `pal-test-${randomUUID()}`,
    SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Background jobs are picked up within half a second, not the default two.
    JOB_POLL_SECONDS: '0.5',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...options.env,
  });
  const app = await createApp(config, { logger: createLogger(config.logLevel) });
  const url = await app.listen();

  return {
    app,
    url,
    config,
    databaseUrl: db.url,
    dataDir,
    rest: restCaller(url),
    async gql(query, variables, callOptions) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...authHeaders(callOptions) },
        body: JSON.stringify({ query, variables }),
      });
      const json = (await res.json()) as { data?: unknown; errors?: GqlResponse['errors'] };
      return { status: res.status, data: (json.data ?? null) as never, errors: json.errors };
    },
    async close() {
      await app.close();
      await db.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database with every committed migration applied, made once per run (global-setup.ts). */
    migratedTemplate: string | null;
  }
}

/**
 * The migrated template of this run, when the API tier's global setup made one (on PostgreSQL):
 * a copy of it is a database the app finds current, so it skips the migrations (about a second
 * of every app a test starts). Null on the embedded database, which copies its own template.
 */
export function migratedTemplate(): string | null {
  try {
    return inject('migratedTemplate') ?? null;
  } catch {
    return null; // outside a vitest worker
  }
}

export function newDeviceId(): string {
  return `test-device-${randomUUID()}`;
}
