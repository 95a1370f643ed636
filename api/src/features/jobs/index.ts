import { defineFeature, type SharedServices } from '../../feature.js';
import { createJobQueue } from './job-queue.js';
import { jobSettingsFrom } from './job-settings.js';

const jobsDeps = ({ config, logger }: SharedServices) => {
  const made = createJobQueue(jobSettingsFrom(config.env), logger);
  return {
    /** The background job queue (pg-boss): features send the kinds they declared (declareJob). */
    jobs: made.queue,
    /** Starts and stops it; the jobs feature's background hook only. */
    jobRunner: made,
  };
};

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof jobsDeps> {}
}

export const jobsFeature = defineFeature({
  name: 'jobs',
  deps: jobsDeps,
  background: ({ orm, deps }) => deps.jobRunner.background(orm, deps),
});
