import type { Ctx } from '../../context.js';
import { findRows } from '../../paging.js';
import { requireAdmin } from '../../caller-policy.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { fileList, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { allOf } from '../../sql-condition.js';
import { User } from '../users/user.entity.js';

const RECENT_UPLOADS = 5;

export interface DashboardFigures {
  userCount: number;
  fileCount: number;
  publicFiles: number;
  privateFiles: number;
  totalDuration: number;
  totalSize: number;
  recentUploads: FileSummary[];
}

/** Three queries whatever the size of the library: users, one aggregate over files, the newest files. */
export async function dashboardStats(ctx: Ctx): Promise<DashboardFigures> {
  requireAdmin(ctx);
  const [userCount, aggregate, recentUploads] = await Promise.all([
    ctx.em.count(User, {}),
    ctx.em.execute<{ file_count: number; public_files: number; total_duration: number; total_size: number }[]>(
      `select count(*)::int as file_count, (count(*) filter (where is_public))::int as public_files,
              coalesce(sum(duration), 0)::float8 as total_duration, coalesce(sum(size), 0)::float8 as total_size
       from ${ctx.em.getMetadata(AudioFile).tableName}`,
    ),
    findRows<FileRow>(ctx.em, fileList(allOf([])), { offset: 0, limit: RECENT_UPLOADS }),
  ]);
  const [totals] = aggregate;
  return {
    userCount,
    fileCount: totals.file_count,
    publicFiles: totals.public_files,
    privateFiles: totals.file_count - totals.public_files,
    totalDuration: totals.total_duration,
    totalSize: totals.total_size,
    recentUploads: recentUploads.map(toFileSummary),
  };
}
