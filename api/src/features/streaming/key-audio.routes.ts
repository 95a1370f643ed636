import { Router, type Request, type Response } from 'express';
import { sendByteRange } from './byte-range.js';
import { openKeyAudio } from './key-audio.service.js';
import { PRIVATE_BYTES } from './stream.routes.js';

const KEY_AUDIO = '/files/:id/audio';

/** The paths of keyAudioRoutes. */
export const keyAudioPaths = [KEY_AUDIO];

/**
 * An API key's audio: `Authorization: Bearer pal_...` is its only credential, so a copied URL
 * carries none. Runs with the ordinary request context (see http/byte-routes.ts), which
 * authenticates whatever token comes and checks the key's scopes before the route.
 */
export function keyAudioRoutes(): Router {
  const router = Router();
  const audio = async (req: Request<{ id: string }>, res: Response) => {
    const bytes = await openKeyAudio(res.locals.ctx, req.params.id);
    await sendByteRange(req, res, { ...bytes, cacheControl: PRIVATE_BYTES });
  };
  router.get(KEY_AUDIO, audio);
  router.head(KEY_AUDIO, audio);
  return router;
}
