import type { Ctx } from '../../context.js';
import type { ApiKeyCaller } from '../api-keys/api-key-caller.js';
import { AppError } from '../../errors.js';
import { parseId } from '../../validation.js';
import { findVisibleFile } from '../access/visibility.js';
import { recheckApiKeyCaller } from '../api-keys/api-key-auth.js';
import { requireCaller } from '../../caller-policy.js';
import { apiKeyListenerFor, meterFor } from './metering.js';
import { storedBytes, type AudioBytes } from './stream.service.js';

const DEVICE_PLAYS_BY_SESSION =
  'This audio route is for API keys with the stream scope: a signed-in device plays through a stream session (POST /api/v1/drm/session/{fileId})';

/** The key route's caller: an API key (its scopes were checked before the route); a device session is refused. */
function requireKeyCaller(ctx: Ctx): ApiKeyCaller {
  const caller = requireCaller(ctx);
  if (!caller.apiKey) throw new AppError('FORBIDDEN', DEVICE_PLAYS_BY_SESSION);
  return caller;
}

/**
 * A stored file's bytes for an API key with the stream scope, when the key's user may see the file
 * (NOT_FOUND otherwise, as for an unknown id). While they go out, every RECHECK_MS, the key is read
 * again (revoked, expired, its user locked or deleted) and so is the file's visibility to its user
 * (a grant revoked or run out, the user demoted, the file deleted); the key's own rip meter counts them.
 */
export async function openKeyAudio(ctx: Ctx, fileId: string): Promise<AudioBytes> {
  const caller = requireKeyCaller(ctx);
  const id = parseId(fileId, 'id');
  const file = await findVisibleFile(ctx.em, caller, id);
  const recheck = async () => {
    // An EntityManager of its own each time: an hour-long response must not pile up every re-check's rows.
    const em = ctx.em.fork();
    const current = await recheckApiKeyCaller(em, caller);
    if (!current) throw new AppError('UNAUTHENTICATED', 'This API key no longer holds');
    await findVisibleFile(em, current, id);
  };
  const { path, size } = storedBytes(ctx, file);
  const tap = meterFor(ctx, apiKeyListenerFor(ctx, caller), file, size);
  return { path, offset: 0, length: size, contentType: file.mimeType, recheck, tap };
}
