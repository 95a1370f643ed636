import type { AppPubSub } from '../../event-bus.js';

export interface ChapterEventPayload {
  fileId: string;
  chapterId: string | null;
  status: string | null;
  /** While a chapter is being encoded: percent done, 0..100; null otherwise. */
  progress: number | null;
  at: string;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    CHAPTERS_CHANGED: [fileId: string, payload: ChapterEventPayload];
  }
}

/** Tells admin screens watching a file that its chapters changed (a null chapter: several did). */
export function publishChapterEvent(
  pubSub: AppPubSub,
  fileId: string,
  chapterId: string | null,
  status: string | null,
  progress: number | null = null,
): void {
  pubSub.publish('CHAPTERS_CHANGED', fileId, { fileId, chapterId, status, progress, at: new Date().toISOString() });
}
