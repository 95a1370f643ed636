import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseEnv } from '../../config.js';

/** How the background job queue runs on this replica, read from the environment once. */
export interface JobSettings {
  /** Jobs of one kind this replica runs at once (a kind may ask for fewer); default: one per core. */
  concurrency: number;
  /**
   * A running job reports it is alive this often (half of it, in fact); one silent for this long
   * is taken to have died with its replica, and is run again elsewhere. At least 10 (pg-boss).
   */
  heartbeatSeconds: number;
  /** How often the queue looks for jobs whose replica died or that ran past their expiry. */
  superviseSeconds: number;
  /** How often an idle worker asks for new jobs. */
  pollSeconds: number;
}

const whole = (name: string, min: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number of at least ${min}` })
    .int(`${name} must be a whole number of at least ${min}`)
    .min(min, `${name} must be a whole number of at least ${min}`);

export const jobEnv = {
  JOB_CONCURRENCY: whole('JOB_CONCURRENCY', 1).optional(),
  JOB_HEARTBEAT_SECONDS: whole('JOB_HEARTBEAT_SECONDS', 10).default(30),
  JOB_SUPERVISE_SECONDS: whole('JOB_SUPERVISE_SECONDS', 1).default(30),
  JOB_POLL_SECONDS: z.coerce
    .number({ error: 'JOB_POLL_SECONDS must be a number of at least 0.5' })
    .min(0.5, 'JOB_POLL_SECONDS must be a number of at least 0.5')
    .default(2),
};

/** The settings from the app's environment; ConfigError (start refused) with a one-line reason. */
export function jobSettingsFrom(env: NodeJS.ProcessEnv): JobSettings {
  const e = parseEnv(z.object(jobEnv), env);
  return {
    concurrency: e.JOB_CONCURRENCY ?? availableParallelism(),
    heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS,
    superviseSeconds: e.JOB_SUPERVISE_SECONDS,
    pollSeconds: e.JOB_POLL_SECONDS,
  };
}
