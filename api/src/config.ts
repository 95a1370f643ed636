import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

const port = z.coerce
  .number({ error: 'PORT must be a whole number between 0 and 65535' })
  .int('PORT must be a whole number between 0 and 65535')
  .min(0, 'PORT must be a whole number between 0 and 65535')
  .max(65535, 'PORT must be a whole number between 0 and 65535');

/** Whose X-Forwarded-For and X-Forwarded-Proto are believed, as Express's `trust proxy` takes it. */
export type ProxyTrust = (address: string, hop: number) => boolean;

const TRUST_PROXY_MESSAGE =
  'TRUST_PROXY must be loopback, linklocal, uniquelocal or IP addresses and CIDR ranges, comma-separated';
const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A named range, an address or a CIDR range; hop counts and `true` are refused: they trust any client. */
function isProxyEntry(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  return rest.length === 0 && isIP(address) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
}

const trustProxy = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()))
  .refine((entries) => entries.every(isProxyEntry), TRUST_PROXY_MESSAGE)
  .transform((entries, ctx): ProxyTrust => {
    try {
      return proxyAddr.compile(entries);
    } catch {
      ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
      return z.NEVER;
    }
  });

const KEEP_ALIVE_MESSAGE = 'KEEP_ALIVE_TIMEOUT_SECONDS must be a number of seconds from 1 to 86400';

const envSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits, _ . : or -')
    .default('pal'),
  TRUST_PROXY: trustProxy.optional(),
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an email address').default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  MAX_DEVICES: z.coerce
    .number()
    .int('MAX_DEVICES must be a whole number of at least 1')
    .min(1, 'MAX_DEVICES must be a whole number of at least 1')
    .default(1),
  FFMPEG_PATH: z.string().min(1).optional(),
  SECRET: z.string().min(32, 'SECRET must be at least 32 characters').optional(),
  STREAM_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(4 * 60 * 60),
  UPLOAD_EXPIRY_HOURS: z.coerce.number().positive().default(24),
  BODY_IDLE_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive('BODY_IDLE_TIMEOUT_SECONDS must be a number of seconds above 0')
    .default(60),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce
    .number({ error: KEEP_ALIVE_MESSAGE })
    .min(1, KEEP_ALIVE_MESSAGE)
    .max(86_400, KEEP_ALIVE_MESSAGE)
    .default(65),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** What the app's keys in Redis begin with, so deployments (or test files) sharing one stay apart. */
  redisKeyPrefix: string;
  /** The reverse proxies whose forwarding headers name the client and its scheme; none by default. */
  trustProxy: ProxyTrust;
  adminEmail: string;
  adminPassword?: string;
  maxDevices: number;
  ffmpegPath?: string;
  secret: string;
  streamSessionTtlSeconds: number;
  uploadExpiryHours: number;
  /**
   * A request body that sends nothing for this long is cut; one still incomplete after five times
   * this is cut too, but for an administrator's upload, which may take as long as it keeps coming.
   */
  bodyIdleTimeoutSeconds: number;
  /**
   * How long an idle kept-alive connection stays open between requests: longer than the idle
   * timeout of the balancer in front (nginx's and cloud balancers' 60 s), so the server never
   * closes a connection the balancer is about to reuse.
   */
  keepAliveTimeoutSeconds: number;
  /**
   * Sign-in attempts allowed per minute per client address and per account (a device proving it
   * signed in to the account before counts on its own instead); registrations per address.
   */
  loginRateLimitPerMinute: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * The environment as read, blank values left out: a feature with settings of its own reads them
   * from here with `parseEnv` when the app is made (rip detection's thresholds).
   */
  env: NodeJS.ProcessEnv;
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; throws ConfigError with a one-line reason. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const e = parseEnv(envSchema, blanksRemoved);
  const dataDir = path.resolve(e.DATA_DIR);
  // Owner only: it holds the database files (password hashes, chapter keys), the secret and the audio.
  // A folder that already exists keeps the permissions its owner gave it.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    trustProxy: e.TRUST_PROXY ?? proxyAddr.compile([]),
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    maxDevices: e.MAX_DEVICES,
    ffmpegPath: e.FFMPEG_PATH,
    secret: e.SECRET ?? persistedSecret(dataDir),
    streamSessionTtlSeconds: e.STREAM_SESSION_TTL_SECONDS,
    uploadExpiryHours: e.UPLOAD_EXPIRY_HOURS,
    bodyIdleTimeoutSeconds: e.BODY_IDLE_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: e.KEEP_ALIVE_TIMEOUT_SECONDS,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    env: blanksRemoved,
  };
}

/** Environment variables read with `schema`; ConfigError with a one-line reason. */
export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * A signing secret generated on first start and kept in DATA_DIR, readable by the owner only.
 * Replicas starting at once on a shared DATA_DIR must all end with the same one: each writes a
 * whole candidate of its own, the first to link its candidate as secret.key wins (a link never
 * replaces a file), and every one reads the winner's.
 */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    const candidate = `${file}.${randomBytes(8).toString('hex')}`;
    writeFileSync(candidate, randomBytes(48).toString('base64url'), { mode: 0o600 });
    try {
      linkSync(candidate, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(candidate, { force: true });
    }
  }
  return readFileSync(file, 'utf8').trim();
}
