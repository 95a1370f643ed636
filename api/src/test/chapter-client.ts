import { expect, vi } from 'vitest';
import { Chapter } from '../features/chapters/chapter.entity.js';
import type { AudioFile } from '../features/files/audio-file.entity.js';
import { createUser, signIn, type Session } from './factories.js';
import type { TestApp } from './harness.js';
import { createStoredAudioFile, grantFile } from './stream-fixtures.js';

export interface ChapterRow {
  id: string;
  label: string;
  status: string;
  plainSize: number | null;
  encryptedSize: number | null;
  finalizedAt: string | null;
  error: string | null;
}

export interface FinalizeBody {
  finalizedChapters: ChapterRow[];
  errors: { chapterId: string; message: string }[];
  summary: { finalized: number; failed: number; total: number };
  queuedChapters: number;
}

/** An administrator's and a viewer's calls around chapters: cut a file, finalize it, ask for its playlist. */
export class ChapterClient {
  constructor(
    private readonly t: TestApp,
    private readonly admin: Session,
  ) {}

  /** A stored 20 s file with these chapters, not yet finalized. */
  async fileWithChapters(
    chapters: { label: string; startTime: number; endTime?: number | null }[],
  ): Promise<AudioFile> {
    const file = await createStoredAudioFile(this.t, { seconds: 20 });
    const res = await this.t.rest('POST', `/files/${file.id}/chapters`, { chapters }, this.admin);
    expect(res.status).toBe(201);
    return file;
  }

  finalize(fileId: string, storageType: string) {
    return this.t.rest<{ data: FinalizeBody } & FinalizeBody>(
      'POST',
      `/files/${fileId}/chapters/finalize`,
      { storageType },
      this.admin,
    );
  }

  /**
   * Finalizes and waits for the background jobs: the chapters that were queued, as they ended
   * (ready or failed), in the file's order.
   */
  async finalizeAndWait(fileId: string, storageType: string): Promise<ChapterRow[]> {
    const res = await this.finalize(fileId, storageType);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const queued = res.body.data.queuedChapters;
    const rows = await waitForChaptersReady(this.t, fileId, this.admin);
    expect(rows.filter((c) => c.status === 'ready' || c.status === 'failed').length).toBeGreaterThanOrEqual(queued);
    return rows;
  }

  /** A signed-in user holding a live grant to the file. */
  async viewerOf(fileId: string): Promise<Session & { grantId: string; email: string }> {
    const user = await createUser(this.t);
    const grantId = await grantFile(this.t, user.id, fileId);
    return { ...(await signIn(this.t, user.email)), grantId, email: user.email };
  }

  /** The absolute playlist URL the session is given for the chapter. */
  async streamUrl(fileId: string, chapterId: string, session: Session): Promise<string> {
    const res = await this.t.rest<{ data: { streamUrl: string }; streamUrl: string }>(
      'POST',
      `/files/${fileId}/chapters/${chapterId}/stream-url`,
      { expiresIn: 1800000 },
      session,
    );
    expect(res.status).toBe(200);
    expect(res.body.streamUrl).toBe(res.body.data.streamUrl);
    return `${this.t.url}${res.body.data.streamUrl}`;
  }
}

/** The key URI, IV and segment URLs of an AES-128 HLS playlist. */
export function parsePlaylist(text: string, base: string) {
  const key = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/i.exec(text);
  expect(key).not.toBeNull();
  const segments = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, base).toString());
  return { keyUrl: new URL(key![1], base).toString(), iv: Buffer.from(key![2], 'hex'), segments };
}

/** MPEG-TS: a 0x47 sync byte at the start of each 188-byte packet (eight checked, so chance never passes). */
export function looksLikeTransportStream(bytes: Buffer): boolean {
  const packets = Math.min(8, Math.floor(bytes.length / 188));
  return packets > 0 && Array.from({ length: packets }, (_, i) => bytes[i * 188]).every((b) => b === 0x47);
}

/** The headers that name a signed-in session on a plain fetch. */
export const withSession = (s: Session) => ({ authorization: `Bearer ${s.token}`, 'x-device-id': s.deviceId });

/**
 * Waits until no chapter of the file is finalizing (the background jobs are done), polling its
 * chapter list as `admin`; returns the chapters, ready or failed (or pending: never queued).
 */
export async function waitForChaptersReady(
  t: Pick<TestApp, 'rest'>,
  fileId: string,
  admin: Session,
  timeoutMs = 60_000,
): Promise<ChapterRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.rest<{ data: ChapterRow[] }>('GET', `/files/${fileId}/chapters`, undefined, admin);
    expect(res.status).toBe(200);
    const rows = res.body.data;
    if (!rows.some((c) => c.status === 'finalizing')) return rows;
    if (Date.now() > deadline)
      throw new Error(`Chapters still finalizing after ${timeoutMs} ms: ${rows.map((c) => c.status).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The file's chapter rows in order, read from the database once none is pending or finalizing. */
export function settledChapters(t: Pick<TestApp, 'app'>, fileId: string): Promise<Chapter[]> {
  return vi.waitFor(
    async () => {
      const found = await t.app.orm.em.fork().find(Chapter, { file: fileId }, { orderBy: { order: 'asc' } });
      if (found.some((c) => c.status === 'pending' || c.status === 'finalizing')) throw new Error('not finalized yet');
      return found;
    },
    { timeout: 60_000, interval: 100 },
  );
}
