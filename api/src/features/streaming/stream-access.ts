import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import { canViewFile } from '../access/visibility.js';
import type { DeviceSession } from '../auth/device-session.entity.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import type { User } from '../users/user.entity.js';

/** The one answer for a byte credential that no longer holds; the player re-initialises on 403. */
export const streamRefused = () => new AppError('FORBIDDEN', 'Stream session is no longer valid');

/**
 * Re-checks, at the moment of a byte request, what a stream credential was issued for: the
 * account is unlocked, the device session still active and the file still visible (grant live).
 */
export async function assertStreamStillAllowed(
  em: EntityManager,
  user: User,
  session: DeviceSession,
  file: AudioFile,
): Promise<void> {
  if (user.isLocked || !session.isActive || session.user.id !== user.id) throw streamRefused();
  if (!(await canViewFile(em, { user, session }, file))) {
    throw new AppError('FORBIDDEN', 'Access denied. You do not have permission to access this file.');
  }
}

/**
 * A credential in a URL may be presented with other credentials (a player that adds its headers
 * to every request). When they name someone else, or another device, the request is refused.
 */
export function assertSamePresenter(
  presenter: { caller: Caller | null; deviceId: string | null },
  session: DeviceSession,
): void {
  if (presenter.caller && presenter.caller.session.id !== session.id) throw streamRefused();
  if (presenter.deviceId && presenter.deviceId !== session.deviceId) throw streamRefused();
}
