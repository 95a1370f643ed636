import { AsyncLocalStorage } from 'node:async_hooks';
import type { MikroORM } from '@mikro-orm/postgresql';
import { fromKnex, PgBoss, type JobWithMetadata } from 'pg-boss';
import type { AppDeps } from '../../context.js';
import { JOB_SCHEMA } from '../../db/job-schema.js';
import type { Logger } from '../../logger.js';
import { deadLetterName, declaredJobs, type JobKind } from './job-kinds.js';
import type { JobSettings } from './job-settings.js';

/** How the queue's own connections name themselves to PostgreSQL (pg_stat_activity, tests). */
export const JOB_APPLICATION_NAME = 'pal-jobs';

/**
 * Set while a job's handler runs, or the queue's own upkeep of a kind (re-queueing at start): what
 * runs inside is the queue's work, not a request's.
 */
export const runningJob = new AsyncLocalStorage<{ kind: string; id: string }>();

/** On PostgreSQL each replica's queue has its own small pool, apart from the ORM's. */
const POOL_SIZE = 3;

/** How long stopping waits for running jobs before failing them (they are retried elsewhere). */
const STOP_GRACE_MS = 5_000;

export interface SendOptions {
  /** For an exclusive kind: while a job with this key waits or runs, another with it is dropped. */
  singletonKey?: string;
  /** Run no earlier than this many seconds from now. */
  startAfterSeconds?: number;
}

/** The app's background job queue (pg-boss), in deps as `jobs`. */
export interface JobQueue {
  /**
   * Queues one job of a declared kind; resolves with its id, or null when a job with the same
   * singleton key is already waiting. Never call it inside a transaction on the embedded
   * database: its one connection is the transaction's until it ends.
   */
  send<Data extends object>(kind: JobKind<Data>, data: Data, options?: SendOptions): Promise<string | null>;
  /** Resolves once the queue is running (the database migrated, every kind's workers started). */
  ready(): Promise<void>;
}

export interface RunningQueue {
  stop(): Promise<void>;
}

/** A queue whose sends wait until start() has run; made with the deps, started after migrations. */
export function createJobQueue(settings: JobSettings, logger: Logger) {
  let boss: PgBoss | null = null;
  let markReady!: (boss: PgBoss) => void;
  let markFailed!: (err: unknown) => void;
  const started = new Promise<PgBoss>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  started.catch(() => undefined);

  const queue: JobQueue = {
    async send(kind, data, options = {}) {
      const running = await started;
      return running.send(kind.name, data, {
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
    },
    async ready() {
      await started;
    },
  };

  async function start(orm: MikroORM, deps: AppDeps, shared: boolean): Promise<void> {
    const connection = shared
      ? { connectionString: deps.config.databaseUrl, max: POOL_SIZE }
      : // The embedded server takes one connection, the ORM's: the queue goes through its pool.
        { db: fromKnex(orm.em.getKnex()) };
    boss = new PgBoss({
      ...connection,
      schema: JOB_SCHEMA,
      application_name: JOB_APPLICATION_NAME,
      superviseIntervalSeconds: settings.superviseSeconds,
      monitorIntervalSeconds: settings.superviseSeconds,
      cronWorkerIntervalSeconds: Math.min(60, Math.max(settings.superviseSeconds, 5)),
      registerInstance: false,
      persistWarnings: false,
      monitorVacuum: false,
      reindex: false,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (err: Error) => logger.error('jobs.error', { message: err.message }));
    await boss.start();
    for (const kind of declaredJobs()) await startKind(boss, kind, orm, deps);
    markReady(boss);
  }

  async function startKind(boss: PgBoss, kind: JobKind<object>, orm: MikroORM, deps: AppDeps) {
    const retryLimit = kind.retryLimit ?? 2;
    const queueOptions = {
      retryLimit,
      expireInSeconds: kind.expireInSeconds ?? 15 * 60,
      heartbeatSeconds: settings.heartbeatSeconds,
    };
    const dead = deadLetterName(kind.name);
    // Replicas starting at once may both create a queue: the loser's error says it exists.
    await ensureQueue(boss, dead, {});
    await ensureQueue(boss, kind.name, {
      ...queueOptions,
      deadLetter: dead,
      policy: kind.exclusive ? 'exclusive' : 'standard',
    });
    // Settings changed since the queue was made (a new release, JOB_HEARTBEAT_SECONDS) apply now.
    await boss.updateQueue(kind.name, queueOptions);
    const localConcurrency = Math.max(1, Math.min(kind.concurrency ?? settings.concurrency, settings.concurrency));
    await boss.work<object>(
      kind.name,
      { localConcurrency, batchSize: 1, pollingIntervalSeconds: settings.pollSeconds },
      async ([job]) => {
        const started = Date.now();
        try {
          await runningJob.run({ kind: kind.name, id: job.id }, () =>
            kind.handler(job.data, {
              orm,
              deps,
              id: job.id,
              retryCount: job.retryCount,
              lastAttempt: job.retryCount >= retryLimit,
              signal: job.signal,
            }),
          );
          logger.debug('jobs.done', { kind: kind.name, id: job.id, ms: Date.now() - started });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          logger.warn('jobs.failed', { kind: kind.name, id: job.id, retryCount: job.retryCount, message });
          throw err;
        }
      },
    );
    // Given-up jobs are rare and nobody waits on them: asked for less often (a poll is a statement on
    // the embedded database's one connection).
    const deadOptions = {
      batchSize: 1,
      includeMetadata: true,
      pollingIntervalSeconds: settings.pollSeconds * 5,
    } as const;
    await boss.work(dead, deadOptions, async ([job]: JobWithMetadata<object>[]) => {
      const reason = failureMessage(job.sourceOutput) ?? 'The job stopped without finishing';
      logger.warn('jobs.given-up', { kind: kind.name, id: job.sourceId, reason });
      await kind.onGiveUp?.(job.data, reason, { orm, deps });
    });
    if (kind.cron) await boss.schedule(kind.name, kind.cron, {}, { tz: 'UTC' });
  }

  return {
    queue,
    /** Starts the queue beside the app; the returned stop lets running jobs end (briefly), then stops. */
    background(orm: MikroORM, deps: AppDeps): RunningQueue {
      const starting = start(orm, deps, deps.config.databaseUrl !== undefined).catch((err: unknown) => {
        logger.error('jobs.start-failed', { message: err instanceof Error ? err.message : String(err) });
        markFailed(err);
      });
      return {
        async stop() {
          await starting;
          await boss?.stop({ graceful: true, timeout: STOP_GRACE_MS });
        },
      };
    },
  };
}

async function ensureQueue(boss: PgBoss, name: string, options: Parameters<PgBoss['createQueue']>[1]) {
  if (await boss.getQueue(name)) return;
  try {
    await boss.createQueue(name, options);
  } catch (err) {
    if (!(await boss.getQueue(name))) throw err;
  }
}

/** The message of a failed job's output as pg-boss stores it ({ message, stack, … } or a value). */
function failureMessage(output: unknown): string | null {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string')
    return output.message;
  if (typeof output === 'string') return output;
  return null;
}
