import { declareJob } from '../jobs/job-kinds.js';
import { sweepExpiredUploads } from './upload-expiry.js';

/**
 * Expired uploads and what no row owns, swept beside the requests: every quarter hour (once
 * across replicas: the queue is exclusive, so a sweep never overlaps another) and after each
 * upload init. Takes a batch per run; the next run takes the rest.
 */
export const uploadSweepJob = declareJob<Record<string, never>>({
  name: 'upload-sweep',
  exclusive: true,
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  concurrency: 1,
  cron: '*/15 * * * *',
  async handler(_data, run) {
    await sweepExpiredUploads(run.orm.em.fork(), run.deps.config);
  },
});
