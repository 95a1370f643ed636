import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import type { DashboardView } from './dashboard.contract.js';
import { dashboardStats } from './dashboard.service.js';

/** REST GET /api/v1/admin/files/stats; registered before the /admin/files/:id routes. */
export function dashboardRoutes(): Router {
  const router = Router();

  router.get('/admin/files/stats', async (_req, res) => {
    const stats = await dashboardStats(res.locals.ctx);
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
  });

  return router;
}
