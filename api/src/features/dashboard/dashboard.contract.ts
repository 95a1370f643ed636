import { z } from 'zod';
import { component, dataBody, routes, timestamp } from '../../http/contract.js';

const count = z.int().min(0);

export const dashboardViewSchema = component(
  'DashboardStats',
  z
    .object({
      userCount: count,
      fileCount: count,
      publicFiles: count,
      privateFiles: count,
      totalDuration: z.number().meta({ description: 'Seconds of audio in all.' }),
      totalSize: z.number().meta({ description: 'Bytes of audio in all.' }),
      recentUploads: z.array(
        z.object({
          id: z.guid(),
          title: z.string(),
          filename: z.string(),
          duration: z.number(),
          size: z.number(),
          isPublic: z.boolean(),
          createdAt: timestamp,
        }),
      ),
    })
    .meta({ description: 'The admin dashboard figures.' }),
);
export type DashboardView = z.output<typeof dashboardViewSchema>;

/** REST GET /api/v1/admin/files/stats (dashboard.routes.ts). */
export const dashboardContract = routes([
  {
    operationId: 'dashboardStats',
    method: 'get',
    path: '/admin/files/stats',
    tag: 'admin-files',
    summary: 'Dashboard statistics',
    caller: 'admin',
    answers: { 200: { description: 'Counts, totals and the newest uploads.', json: dataBody(dashboardViewSchema) } },
  },
]);
