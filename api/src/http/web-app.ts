import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

const builtWebApp = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Vite names what it puts in assets/ after the content: a changed file gets a new name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The built web app, when there is one: its files, and index.html for every other path outside the
 * API so the browser's router takes over. Fingerprinted assets are cached for a year, index.html is
 * revalidated on every visit (it names the current assets), other files (favicon, robots.txt) for
 * an hour. Where the build left `.br`/`.gz` copies (web/build/precompress.ts), the one the browser
 * accepts is sent as it is.
 */
export function webApp(dist = builtWebApp): Router {
  const router = express.Router();
  if (!existsSync(dist)) return router;
  const assets = path.join(dist, 'assets') + path.sep;
  router.use(
    expressStaticGzip(dist, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        maxAge: '1h',
        setHeaders: (res, file) => {
          if (file.startsWith(assets)) res.setHeader('Cache-Control', IMMUTABLE);
        },
      },
    }),
  );
  router.get(/^\/(?!api\/|graphql|healthz).*/, (_req, res) => {
    res.sendFile(path.join(dist, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
}
