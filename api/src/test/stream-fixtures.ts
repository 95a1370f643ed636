import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileAccess } from '../features/access/file-access.entity.js';
import { AudioFile } from '../features/files/audio-file.entity.js';
import { storageDirs } from '../features/files/storage-paths.js';
import { StreamSession } from '../features/playback/stream-session.entity.js';
import { User } from '../features/users/user.entity.js';
import { generateTestAudio } from './audio-fixtures.js';
import type { TestApp } from './harness.js';

const tones = new Map<number, Promise<string>>();

/** One generated MP3 per length for the whole test file; ffmpeg is slow next to a copy. */
function toneOf(seconds: number): Promise<string> {
  let tone = tones.get(seconds);
  if (!tone) {
    tone = generateTestAudio('mp3', seconds);
    tones.set(seconds, tone);
  }
  return tone;
}

/** An AudioFile row with real MP3 bytes under DATA_DIR/audio, as an upload would leave it. */
export async function createStoredAudioFile(
  t: TestApp,
  options: { seconds?: number; isPublic?: boolean; title?: string } = {},
): Promise<AudioFile> {
  const seconds = options.seconds ?? 20;
  const relative = path.join(storageDirs.audio, `${randomUUID()}.mp3`);
  const full = path.join(t.config.dataDir, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await copyFile(await toneOf(seconds), full);
  const em = t.app.orm.em.fork();
  const file = em.create(AudioFile, {
    title: options.title ?? 'Test tone',
    filename: 'tone.mp3',
    storagePath: relative,
    size: (await stat(full)).size,
    duration: seconds,
    mimeType: 'audio/mpeg',
    isPublic: options.isPublic ?? false,
  });
  await em.persist(file).flush();
  return file;
}

/** Removes the generated tones' temporary folders. */
export async function removeTones(): Promise<void> {
  for (const tone of tones.values()) await rm(path.dirname(await tone), { recursive: true, force: true });
  tones.clear();
}

/** A grant straight in the database; expiresAt in the past makes an expired one. */
export async function grantFile(
  t: TestApp,
  userId: string,
  fileId: string,
  expiresAt: Date | null = null,
): Promise<string> {
  const em = t.app.orm.em.fork();
  const grant = em.create(FileAccess, {
    user: em.getReference(User, userId),
    file: em.getReference(AudioFile, fileId),
    expiresAt,
  });
  await em.persist(grant).flush();
  return grant.id;
}

/**
 * The helpers below write straight to the database, which no service does without announcing the
 * change to every replica's cached byte checks (ACCESS_CHANGED): they announce it as well, so a
 * test sees what a user would see after the service's change.
 */
function announce(t: TestApp, userId: string): void {
  t.app.deps.pubSub.publish('ACCESS_CHANGED', { userId, fileId: null });
}

export async function setGrant(
  t: TestApp,
  grantId: string,
  patch: Partial<Pick<FileAccess, 'canView' | 'expiresAt'>>,
): Promise<void> {
  const em = t.app.orm.em.fork();
  await em.nativeUpdate(FileAccess, { id: grantId }, patch);
  announce(t, (await em.findOneOrFail(FileAccess, { id: grantId })).user.id);
}

/** Deletes a grant, as if the user had never held one. */
export async function removeGrant(t: TestApp, grantId: string): Promise<void> {
  const em = t.app.orm.em.fork();
  const { user } = await em.findOneOrFail(FileAccess, { id: grantId });
  await em.nativeDelete(FileAccess, { id: grantId });
  announce(t, user.id);
}

export async function setLocked(t: TestApp, userId: string, isLocked: boolean): Promise<void> {
  await t.app.orm.em.fork().nativeUpdate(User, { id: userId }, { isLocked });
  announce(t, userId);
}

/** Makes the user's stream tokens run out now. */
export async function expireStreamSessions(t: TestApp, userId: string): Promise<void> {
  await t.app.orm.em.fork().nativeUpdate(StreamSession, { user: userId }, { expiresAt: new Date(Date.now() - 1000) });
  announce(t, userId);
}

/** The stream-path cookie an answer set (`name=value`), as a browser would send it back; '' when none. */
export function streamProofCookie(headers: Headers): string {
  const set = headers.getSetCookie().find((c) => c.startsWith('stream_proof='));
  return set ? set.split(';')[0] : '';
}
