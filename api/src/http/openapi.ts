import { Router } from 'express';
import { openApiDocument } from './openapi-document.js';

/** GET /api/v1/openapi.json: public, it describes the API and holds no data. */
export function openApiRoutes(): Router {
  const router = Router();
  const document = openApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(document);
  });
  return router;
}
