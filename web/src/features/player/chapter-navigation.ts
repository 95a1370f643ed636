import { shownChapterEnd } from '../../components/chapter-time';

/** Chapter jumps in the main player: by the chapters' start times, whatever their encoding status. */
export interface ChapterMark {
  id: string;
  label: string;
  startTime: number;
  endTime: number | null;
}

/** Within this many seconds of a chapter's start, "previous" goes to the chapter before. */
const RESTART_WINDOW_SECONDS = 3;

function byStart(chapters: readonly ChapterMark[]): ChapterMark[] {
  return [...chapters].sort((a, b) => a.startTime - b.startTime);
}

/** The chapter playing at `position`, if any. */
export function chapterAt(chapters: readonly ChapterMark[], position: number): ChapterMark | null {
  let current: ChapterMark | null = null;
  for (const chapter of byStart(chapters)) {
    if (chapter.startTime <= position + 0.25) current = chapter;
  }
  if (current?.endTime !== null && current?.endTime !== undefined && position >= current.endTime) return null;
  return current;
}

/** Where a chapter ends: its end time, else the next chapter's start, else the file's end. */
export function chapterEnd(chapters: readonly ChapterMark[], chapter: ChapterMark, duration: number): number {
  return shownChapterEnd(chapters, chapter) ?? duration;
}

/** The start of the next chapter after `position`; null at the last one. */
export function nextChapterStart(chapters: readonly ChapterMark[], position: number): number | null {
  return byStart(chapters).find((c) => c.startTime > position + 0.25)?.startTime ?? null;
}

/** The start of this chapter, or of the one before when just past its start. */
export function previousChapterStart(chapters: readonly ChapterMark[], position: number): number {
  const starts = byStart(chapters)
    .map((c) => c.startTime)
    .filter((start) => start <= position - RESTART_WINDOW_SECONDS);
  return starts.at(-1) ?? 0;
}
