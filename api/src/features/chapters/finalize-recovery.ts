import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../context.js';
import { runningJob } from '../jobs/job-queue.js';
import { finalizeChapterJob } from './chapter-finalize-job.js';
import { Chapter, ChapterStatus, SegmentStorage } from './chapter.entity.js';

/**
 * At start, every chapter still finalizing gets its job again, unless one waits or runs (the
 * queue is exclusive per chapter, so the send is dropped then). A chapter finalizing with no job is
 * one whose job row is gone: a database restored from a backup taken mid-encode (the job queue's
 * tables are not in backups). Its storage choice went with the job: filesystem, the default.
 */
export function resumeFinalizing(orm: MikroORM, deps: AppDeps): { stop(): Promise<void> } {
  // The queue's upkeep, not a request's: run as the kind's own work (runningJob).
  const resuming = runningJob
    .run({ kind: finalizeChapterJob.name, id: 'resume-at-start' }, async () => {
      await deps.jobs.ready();
      const stuck = await orm.em.fork().find(Chapter, { status: ChapterStatus.finalizing }, { fields: ['id'] });
      let sent = 0;
      for (const { id } of stuck) {
        const job = await deps.jobs.send(
          finalizeChapterJob,
          { chapterId: id, storageType: SegmentStorage.filesystem },
          { singletonKey: id },
        );
        if (job) sent++;
      }
      if (sent) deps.logger.info('chapters.finalize-resumed', { chapters: sent });
    })
    .catch((err: unknown) => {
      deps.logger.warn('chapters.finalize-not-resumed', { message: err instanceof Error ? err.message : String(err) });
    });
  return { stop: () => resuming };
}
