import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../context.js';

/** What a job's handler is given: the app it runs in and the attempt it is. */
export interface JobRun {
  orm: MikroORM;
  deps: AppDeps;
  /** The pg-boss job id. */
  id: string;
  /** 0 on the first attempt, 1 on the first retry, … */
  retryCount: number;
  /** True when a failure now gives the job up (no retry left). */
  lastAttempt: boolean;
  /** Aborted when the job is taken from this worker (expired, its claim lost, the app stopping). */
  signal: AbortSignal;
}

/** A kind of background job, declared once by the feature that owns the work (declareJob). */
export interface JobKind<Data extends object> {
  /** The queue's name: letters, digits, dashes and dots. */
  name: string;
  /** Does the work; a throw fails the attempt (retried until retryLimit, then given up). */
  handler(data: Data, run: JobRun): Promise<void>;
  /** Retries after the first attempt fails; default 2. */
  retryLimit?: number;
  /** Seconds an attempt may run before it is failed (and retried); default 15 minutes. */
  expireInSeconds?: number;
  /**
   * At most one job per singleton key waiting or running (jobs sent without a key share one):
   * a second send of the same key is dropped (send answers null). Fixed when the queue is first made.
   */
  exclusive?: boolean;
  /** At most this many at once per replica; default: JOB_CONCURRENCY. */
  concurrency?: number;
  /**
   * Called once the job is given up: its last attempt failed, or its replica died during it. On
   * whichever replica picks the dead letter up; `reason` is the last failure's message.
   */
  onGiveUp?(data: Data, reason: string, app: { orm: MikroORM; deps: AppDeps }): Promise<void>;
  /** A cron expression (UTC): the queue sends itself one job each time, once across replicas. */
  cron?: string;
}

const declared = new Map<string, JobKind<object>>();

/**
 * Declares a job kind. Called at module load by the feature owning it, so every kind is known
 * before any app starts its queue (the composition root imports every feature).
 */
export function declareJob<Data extends object>(kind: JobKind<Data>): JobKind<Data> {
  if (!/^[A-Za-z0-9.-]+$/.test(kind.name)) throw new Error(`Invalid job name: ${kind.name}`);
  const existing = declared.get(kind.name);
  if (existing && existing !== (kind as JobKind<object>)) throw new Error(`Job ${kind.name} is declared twice`);
  declared.set(kind.name, kind as JobKind<object>);
  return kind;
}

/** Every kind declared so far. */
export function declaredJobs(): JobKind<object>[] {
  return [...declared.values()];
}

/** The dead-letter queue of a kind: where a given-up job's data goes for its onGiveUp. */
export const deadLetterName = (name: string) => `${name}.given-up`;
