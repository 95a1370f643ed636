import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { dashboardStats } from './dashboard.service.js';

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

/** REST GET /api/v1/admin/files/stats. */
export const dashboardRoutes = routes([
  {
    operationId: 'dashboardStats',
    method: 'get',
    path: '/admin/files/stats',
    tag: 'admin-files',
    summary: 'Dashboard statistics',
    caller: 'admin',
    answers: { 200: { description: 'Counts, totals and the newest uploads.', json: dataBody(dashboardViewSchema) } },
    scopes: [ApiKeyScope.LIBRARY_READ, ApiKeyScope.USERS_READ],
    async handle({ ctx, res }) {
      const stats = await dashboardStats(ctx);
      const view: DashboardView = {
        ...stats,
        recentUploads: stats.recentUploads.map((f) => ({
          id: f.id,
          title: f.title,
          filename: f.filename,
          duration: f.duration,
          size: f.size,
          isPublic: f.isPublic,
          createdAt: f.createdAt,
        })),
      };
      sendData(res, view);
    },
  },
]);
