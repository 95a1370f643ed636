import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * The built web app, when there is one: its files, and index.html for every other path outside the
 * API so the browser's router takes over.
 */
export function webApp(): Router {
  const router = express.Router();
  if (!existsSync(webDist)) return router;
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));
  router.get(/^\/(?!api\/|graphql|healthz).*/, (_req, res) => {
    res.sendFile(path.join(webDist, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
}
